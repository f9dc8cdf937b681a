import type { mainApiHealthRoutes } from "@cloudcost/contracts";
import { migrationsApplied, type Database } from "@cloudcost/db";
import { HttpError } from "@cloudcost/http";
import { MIGRATIONS_DIR } from "../db";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";

export function healthHandlers(db: Database): Handlers<keyof typeof mainApiHealthRoutes> {
  return {
    mainHealthz: () => success("main-api is up", { service: "main-api" }),
    mainReadyz: async () => {
      const ready = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
      if (!ready) throw new HttpError("service_unavailable", "not ready: database unreachable or migrations not applied");
      return success("ready", { database: "ok", migrations: "applied" });
    },
  };
}
