import { Router } from "express";
import { migrationsApplied, type Database } from "@cloudcost/db";
import { MIGRATIONS_DIR } from "../db";
import { sendData } from "../http/envelope";

export function healthRoutes(db: Database): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    sendData(res, { service: "main-api" }, "main-api is up");
  });
  router.get("/readyz", async (_req, res) => {
    const ready = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
    if (ready) return sendData(res, { database: "ok", migrations: "applied" }, "ready");
    res.status(503).json({ message: "not ready: database unreachable or migrations not applied", status: "error" });
  });
  return router;
}
