import type { pricingHealthRoutes } from "@cloudcost/contracts";
import { migrationsApplied, type Database } from "@cloudcost/db";
import { HttpError } from "@cloudcost/http";
import type { ComputeCatalogStore } from "../compute/catalog";
import { MIGRATIONS_DIR } from "../db";
import type { Handlers } from "../operations";

/** /readyz: 503 until the migrations are applied and the compute catalog is loaded (the server loads it after listening). */
export function healthHandlers(db: Database, computeCatalog: ComputeCatalogStore): Handlers<keyof typeof pricingHealthRoutes> {
  return {
    pricingHealthz: () => ({ status: 200, body: { status: "ok", service: "pricing-api" } }),
    pricingReadyz: async () => {
      const migrated = await migrationsApplied(db.sql, MIGRATIONS_DIR).catch(() => false);
      if (!migrated) throw new HttpError("service_unavailable", "not ready: database unreachable or migrations not applied");
      if (!computeCatalog.loaded) throw new HttpError("service_unavailable", "not ready: compute catalog not loaded yet");
      return { status: 200, body: { status: "ready" } };
    },
  };
}
