import { openDatabase, type Database, type SessionSettings } from "./database";
import { migrate } from "./migrate";

interface InfoLogger {
  info(obj: object, msg: string): void;
}

/** Opens the configured database (PostgreSQL, or the embedded PGlite) and applies pending migrations. */
export async function openMigratedDatabase(options: {
  url?: string;
  dataDir: string;
  migrationsDir: string;
  logger: InfoLogger;
  poolSize?: number;
  /** PostgreSQL: the longest wait for a pooled connection (0 or absent: no bound). */
  poolWaitMs?: number;
  sessionSettings?: SessionSettings;
}): Promise<Database> {
  const db = await openDatabase({
    url: options.url,
    dataDir: options.dataDir,
    poolSize: options.poolSize,
    poolWaitMs: options.poolWaitMs,
    sessionSettings: options.sessionSettings,
  });
  try {
    const { applied } = await migrate(db.sql, options.migrationsDir);
    options.logger.info({ database: db.description, applied }, applied.length ? "migrations applied" : "database up to date");
    return db;
  } catch (err) {
    await db.close();
    throw err;
  }
}
