import { Router } from "express";
import { mainApiHealthRoutes } from "@cloudcost/contracts";
import { migrationsApplied, type Database } from "@cloudcost/db";
import { HttpError, registerRoutes } from "@cloudcost/http";
import { MIGRATIONS_DIR } from "../db";
import { success } from "../http/envelope";

export function healthRoutes(db: Database): Router {
  const router = Router();
  registerRoutes(
    router,
    mainApiHealthRoutes,
    {
      mainHealthz: () => success("main-api is up", { service: "main-api" }),
      mainReadyz: async () => {
        const ready = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
        if (!ready) throw new HttpError("service_unavailable", "not ready: database unreachable or migrations not applied");
        return success("ready", { database: "ok", migrations: "applied" });
      },
    },
    { authenticate: {} },
  );
  return router;
}
