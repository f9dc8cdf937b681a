import { openMigratedDatabase } from "@cloudcost/db";
import { closeRedis, createLogger, redisReady, serve, startFailure } from "@cloudcost/http";
import { createApp } from "./app";
import { buildDeps } from "./compose";
import { startAlertSchedule } from "./anomalies/schedule";
import { startAnalysisSchedule } from "./compute/analysis";
import { inventoryRepository } from "./compute/inventory-repository";
import { startImportSessionSweep } from "./spend/imports/sessions";
import { loadConfig } from "./config";
import { MIGRATIONS_DIR, SESSION_SETTINGS } from "./db";
import { envelopeClientErrorBody } from "./errors";

async function main() {
  const config = loadConfig();
  const logger = createLogger("main-api", config.logLevel);
  if (config.auth.devIssuerWarning) logger.warn(config.auth.devIssuerWarning);
  if (config.webhooks.insecureWarning) logger.warn(config.webhooks.insecureWarning);
  const db = await openMigratedDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsDir: MIGRATIONS_DIR,
    logger,
    sessionSettings: SESSION_SETTINGS,
    poolSize: config.databasePool.size,
    poolWaitMs: config.databasePool.waitMs,
  });
  const deps = buildDeps({ config, db, logger });
  const { prisma, outbox } = deps;
  if (deps.redis && !(await redisReady(deps.redis))) logger.warn("REDIS_URL is not reachable yet: rate limits count in this process until it is");
  const app = createApp(deps);
  outbox.start();
  outbox.kick(); // deliver whatever a previous run left undelivered
  const schedule = startAnalysisSchedule({ prisma, logger, inventory: inventoryRepository }, deps.analyzer, config.analysisIntervalMinutes);
  const alerts = startAlertSchedule({ prisma, logger, outbox }, config.alertsIntervalMinutes);
  const importSessions = startImportSessionSweep(deps, config.spendImportSessionSweepMinutes);
  deps.vacuum.start();
  deps.dimensionApply.start();
  await serve({
    name: "main-api",
    app,
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    clientErrorBody: envelopeClientErrorBody,
    metrics: { app: deps.metrics.app(), port: config.metricsPort },
    onShutdown: async () => {
      await outbox.stop();
      await schedule.stop();
      await alerts.stop();
      await importSessions.stop();
      await deps.vacuum.stop();
      await deps.dimensionApply.stop();
      await prisma.$disconnect();
      await db.close();
      if (deps.redis) await closeRedis(deps.redis);
    },
  });
}

main().catch((err) => startFailure("main-api", err));
