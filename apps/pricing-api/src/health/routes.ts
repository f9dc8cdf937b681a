import { Router } from "express";
import { migrationsApplied, type Database } from "@cloudcost/db";
import type { ComputeCatalogStore } from "../compute/catalog";
import { MIGRATIONS_DIR } from "../db";

/** /readyz: 503 until the migrations are applied and the compute catalog is loaded (the server loads it after listening). */
export function healthRoutes(db: Database, computeCatalog: ComputeCatalogStore): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok", service: "pricing-api" });
  });
  router.get("/readyz", async (_req, res) => {
    const migrated = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
    if (!migrated) return void res.status(503).json({ error: "not ready: database unreachable or migrations not applied" });
    if (!computeCatalog.loaded) return void res.status(503).json({ error: "not ready: compute catalog not loaded yet" });
    res.json({ status: "ready" });
  });
  return router;
}
