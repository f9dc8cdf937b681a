import { Router } from "express";
import { migrationsApplied, type Database } from "@cloudcost/db";
import { MIGRATIONS_DIR } from "../db";

export function healthRoutes(db: Database): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok", service: "pricing-api" });
  });
  router.get("/readyz", async (_req, res) => {
    const ready = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
    res.status(ready ? 200 : 503).json(ready ? { status: "ready" } : { error: "not ready: database unreachable or migrations not applied" });
  });
  return router;
}
