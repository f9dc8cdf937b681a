import { migrateDatabase } from "@cloudcost/db";
import { createLogger, startFailure } from "@cloudcost/http";
import { loadConfig } from "../config";
import { MIGRATIONS_DIR } from "../db";

// `pnpm db:migrate`: applies pending migrations without starting the service.
async function main() {
  const config = loadConfig();
  const logger = createLogger("main-api-migrate", config.logLevel);
  await migrateDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
}

main().catch((err) => startFailure("main-api migrations", err));
