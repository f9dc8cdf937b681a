export { openDatabase, type Database, type OpenDatabaseOptions, type DriverAdapterFactory, type SessionSettings } from "./database";
export { migrate, migrationsApplied, readMigrations, MigrationError, PRISMA_MIGRATE_LOCK_ID } from "./migrate";
export { lockDataDir, DataDirLockedError } from "./datadir-lock";
export { redactUrl } from "./postgres";
export type { QueryOptions, SqlClient, SqlSession } from "./sql-client";
export { openMigratedDatabase } from "./open-migrated";
export { migrateDatabase } from "./migrate-command";
export { newId } from "./ids";
export { TRANSACTION_OPTIONS, isUniqueViolation, isForeignKeyViolation, isSerializationFailure } from "./transactions";
