import { loadServiceSecret } from "@cloudcost/credentials";
import { openMigratedDatabase } from "@cloudcost/db";
import { createLogger, createMetrics, serve, startFailure } from "@cloudcost/http";
import { createApp } from "./app";
import { pricingClientErrorBody } from "./errors";
import { ApiKeyStore } from "./auth/api-key-store";
import { ComputeCatalogStore } from "./compute/catalog";
import { loadSeedCatalog, refreshCatalogStore, watchCatalogVersion } from "./compute/catalog-loader";
import { loadConfig } from "./config";
import { createPrisma, MIGRATIONS_DIR } from "./db";

async function main() {
  const config = loadConfig();
  const logger = createLogger("pricing-api", config.logLevel);
  const serviceSecret = loadServiceSecret(config.serviceTokenSecret, config.dataRoot);
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const prisma = createPrisma(db.adapter);
  const apiKeys = new ApiKeyStore(prisma);
  apiKeys.startUsageFlush();
  const computeCatalog = new ComputeCatalogStore();
  const metrics = createMetrics("pricing-api");
  const app = createApp({ config, db, prisma, logger, metrics, apiKeys, serviceSecret, computeCatalog });
  let stopWatching = () => undefined as void;
  // Listening first lets /healthz answer while the catalog loads; /readyz says 503 until it is loaded.
  let catalogLoad: Promise<void> = Promise.resolve();
  await serve({
    name: "pricing-api",
    app,
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    clientErrorBody: pricingClientErrorBody,
    metrics: { app: metrics.app(), port: config.metricsPort },
    onShutdown: async () => {
      await catalogLoad.catch(() => undefined);
      await apiKeys.stop();
      stopWatching();
      await prisma.$disconnect();
      await db.close();
    },
  });
  catalogLoad = (async () => {
    const started = performance.now();
    const seed = await loadSeedCatalog({ db, prisma });
    const seeded = performance.now();
    const catalog = await refreshCatalogStore({ db, prisma }, computeCatalog);
    logger.info(
      {
        version: catalog.version,
        rows: catalog.size,
        seed_replaced: seed.replaced,
        seed_ms: Math.round(seeded - started),
        cache_ms: Math.round(performance.now() - seeded),
      },
      seed.replaced ? "compute catalog loaded from the seed" : "compute catalog up to date",
    );
    stopWatching = watchCatalogVersion({ db, prisma }, computeCatalog, config.computeCatalogRefreshMs, (err) =>
      logger.error({ err }, "compute catalog refresh failed"),
    );
  })();
  await catalogLoad;
}

main().catch((err) => startFailure("pricing-api", err));
