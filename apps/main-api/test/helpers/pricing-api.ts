import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pino from "pino";
import type { Database } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
// The real pricing API, in process, on its own test database.
import { createApp } from "../../../pricing-api/src/app";
import { buildDeps } from "../../../pricing-api/src/compose";
import { loadSeedCatalog, refreshCatalogStore } from "../../../pricing-api/src/compute/catalog-loader";
import { loadConfig } from "../../../pricing-api/src/config";

export interface RunningPricingApi {
  url: string;
  /** While true the server answers every request with 503 (an outage). */
  down: boolean;
  close(): Promise<void>;
}

/** `computeCatalog` loads the seed compute catalog (real public prices), as `pnpm start` does. */
export async function startPricingApi(serviceSecret: string, options: { computeCatalog?: boolean } = {}): Promise<RunningPricingApi> {
  const db: Database = await createTestDatabase(path.resolve(__dirname, "../../../pricing-api/prisma/migrations"));
  const config = loadConfig({ LOG_LEVEL: "silent", RATE_LIMIT_PER_IP: "0", RATE_LIMIT_PER_CREDENTIAL: "0", SERVICE_TOKEN_SECRET: serviceSecret });
  const deps = buildDeps({ config, db, logger: pino({ level: "silent" }), serviceSecret: new TextEncoder().encode(serviceSecret) });
  const { prisma, apiKeys } = deps;
  if (options.computeCatalog) {
    await loadSeedCatalog({ db, prisma });
    await refreshCatalogStore({ db, prisma }, deps.computeCatalog);
  }
  const app = createApp(deps);
  const state = { down: false };
  const server = http.createServer((req, res) => {
    if (state.down) {
      res.statusCode = 503;
      res.end("down for maintenance");
      return;
    }
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apiKeys.stop();
      await prisma.$disconnect();
      await db.close();
    },
  };
}
