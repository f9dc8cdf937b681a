import { openMigratedDatabase } from "@cloudcost/db";
import { createLogger, serve, startFailure } from "@cloudcost/http";
import { createApp } from "./app";
import { loadConfig } from "./config";
import { createPrisma, MIGRATIONS_DIR } from "./db";

async function main() {
  const config = loadConfig();
  const logger = createLogger("pricing-api", config.logLevel);
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const prisma = createPrisma(db.adapter);
  const app = createApp({ config, db, prisma, logger });
  await serve({
    name: "pricing-api",
    app,
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onShutdown: async () => {
      await prisma.$disconnect();
      await db.close();
    },
  });
}

main().catch((err) => startFailure("pricing-api", err));
