import { openMigratedDatabase } from "@cloudcost/db";
import { createLogger, serve, startFailure } from "@cloudcost/http";
import { createApp } from "./app";
import { loadConfig } from "./config";
import { createPrisma, MIGRATIONS_DIR } from "./db";
import { createOutboxWorker } from "./outbox";

async function main() {
  const config = loadConfig();
  const logger = createLogger("main-api", config.logLevel);
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const prisma = createPrisma(db.adapter);
  const outbox = createOutboxWorker({ config, prisma, logger });
  const app = createApp({ config, db, prisma, logger, outbox });
  outbox.start();
  outbox.kick(); // deliver whatever a previous run left undelivered
  await serve({
    name: "main-api",
    app,
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onShutdown: async () => {
      await outbox.stop();
      await prisma.$disconnect();
      await db.close();
    },
  });
}

main().catch((err) => startFailure("main-api", err));
