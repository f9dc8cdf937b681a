import { openMigratedDatabase } from "./open-migrated";

/**
 * What each service's `pnpm db:migrate` does: applies pending migrations to the configured database
 * (PostgreSQL, or the embedded PGlite) without starting the service, then closes it.
 */
export async function migrateDatabase(options: Parameters<typeof openMigratedDatabase>[0]): Promise<void> {
  const db = await openMigratedDatabase(options);
  await db.close();
}
