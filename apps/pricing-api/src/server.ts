import { lacksAutovacuum, openMigratedDatabase, vacuumDeadTables } from "@cloudcost/db";
import { closeRedis, createLogger, redisReady, serve, startFailure, startPeriodic } from "@cloudcost/http";
import { createApp } from "./app";
import { buildDeps } from "./compose";
import { loadSeedCatalog, refreshCatalogStore, watchCatalogVersion } from "./compute/catalog-loader";
import { loadConfig } from "./config";
import { MIGRATIONS_DIR } from "./db";
import { pricingClientErrorBody } from "./errors";

async function main() {
  const config = loadConfig();
  const logger = createLogger("pricing-api", config.logLevel);
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const deps = buildDeps({ config, db, logger });
  const { prisma, apiKeys, computeCatalog, changes } = deps;
  await changes.start();
  apiKeys.startUsageFlush();
  if (deps.redis && !(await redisReady(deps.redis))) logger.warn("REDIS_URL is not reachable yet: rate limits count in this process until it is");
  const app = createApp(deps);
  // Where the database has no autovacuum (PGlite; PostgreSQL with autovacuum off), the tables past
  // autovacuum's thresholds are vacuumed here (docs/operations.md, vacuuming); elsewhere nothing runs.
  let ownVacuum: boolean | undefined;
  const vacuum = startPeriodic({
    intervalMs: config.vacuumIntervalMs,
    runAtStart: true,
    onError: (err) => logger.warn({ err }, "vacuum pass failed; the next one retries"),
    run: async () => {
      ownVacuum ??= await lacksAutovacuum(db.kind, db.sql);
      if (ownVacuum) await vacuumDeadTables(db.sql);
    },
  });
  let catalogWatch: { stop(): Promise<void> } | undefined;
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
    metrics: { app: deps.metrics.app(), port: config.metricsPort },
    onShutdown: async () => {
      await catalogLoad.catch(() => undefined);
      await apiKeys.stop();
      await catalogWatch?.stop();
      await vacuum.stop();
      await changes.close();
      await prisma.$disconnect();
      await db.close();
      if (deps.redis) await closeRedis(deps.redis);
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
    catalogWatch = watchCatalogVersion({ db, prisma }, computeCatalog, config.computeCatalogRefreshMs, (err) =>
      logger.error({ err }, "compute catalog refresh failed"),
    );
  })();
  await catalogLoad;
}

main().catch((err) => startFailure("pricing-api", err));
