import { loadServiceSecret } from "@cloudcost/credentials";
import { openMigratedDatabase } from "@cloudcost/db";
import { createLogger, serve, startFailure } from "@cloudcost/http";
import { createApp } from "./app";
import { ApiKeyStore } from "./auth/api-key-store";
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
  const app = createApp({ config, db, prisma, logger, apiKeys, serviceSecret });
  await serve({
    name: "pricing-api",
    app,
    port: config.port,
    host: config.host,
    logger,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    onShutdown: async () => {
      await apiKeys.stop();
      await prisma.$disconnect();
      await db.close();
    },
  });
}

main().catch((err) => startFailure("pricing-api", err));
