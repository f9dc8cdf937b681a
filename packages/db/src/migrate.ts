import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SqlClient } from "./sql-client";

/** The advisory lock id Prisma Migrate takes, so our runner and `prisma migrate deploy` exclude each other. */
export const PRISMA_MIGRATE_LOCK_ID = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export function readMigrations(migrationsDir: string): LocalMigration[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Applies every migration of `migrationsDir` not yet applied, one transaction each, under Prisma's
 * advisory lock, recording rows in `_prisma_migrations` exactly as Prisma Migrate does.
 */
export async function migrate(sql: SqlClient, migrationsDir: string): Promise<{ applied: string[] }> {
  const local = readMigrations(migrationsDir);
  return sql.withSession(async (session) => {
    await session.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    try {
      await session.exec(CREATE_TABLE);
      const rows = await session.query<AppliedRow>(`SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`);
      const byName = new Map(rows.map((row) => [row.migration_name, row]));
      const applied: string[] = [];
      for (const migration of local) {
        const row = byName.get(migration.name);
        if (row && !row.finished_at) {
          throw new MigrationError(`Migration ${migration.name} failed earlier and is not finished; resolve it before migrating again.`);
        }
        if (row) {
          if (row.checksum !== migration.checksum) {
            throw new MigrationError(
              `Migration ${migration.name} was changed after it was applied (checksum mismatch). ` +
                `Restore the original file and write a new migration instead.`,
            );
          }
          continue;
        }
        await session.exec("BEGIN");
        try {
          const id = randomUUID();
          await session.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
             VALUES ($1, $2, $3, now(), 0)`,
            [id, migration.checksum, migration.name],
          );
          await session.exec(migration.sql);
          await session.query(`UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`, [id]);
          await session.exec("COMMIT");
        } catch (err) {
          await session.exec("ROLLBACK");
          throw new MigrationError(`Migration ${migration.name} failed: ${(err as Error).message}`);
        }
        applied.push(migration.name);
      }
      return { applied };
    } finally {
      await session.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_ID]);
    }
  });
}

/** True when every local migration is applied (readiness). */
export async function migrationsApplied(sql: SqlClient, migrationsDir: string): Promise<boolean> {
  const local = readMigrations(migrationsDir);
  const rows = await sql.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const done = new Set(rows.map((row) => row.migration_name));
  return local.every((migration) => done.has(migration.name));
}
