import { Router } from "express";
import { migrationsApplied, type Database } from "@cloudcost/db";
import { MIGRATIONS_DIR } from "../db";

export function healthRoutes(db: Database): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ message: "main-api is up", status: "success", data: { service: "main-api" } });
  });
  router.get("/readyz", async (_req, res) => {
    const ready = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
    res
      .status(ready ? 200 : 503)
      .json(
        ready
          ? { message: "ready", status: "success", data: { database: "ok", migrations: "applied" } }
          : { message: "not ready: database unreachable or migrations not applied", status: "error" },
      );
  });
  return router;
}
