#!/usr/bin/env node
// db-diff: authors Prisma migrations without Prisma's native schema engine.
//
//   node packages/db/bin/db-diff.mjs --schema <schema.prisma> --migrations <prisma/migrations> [--name <name>] [--check]
//
// It replays every `<migrations>/<dir>/migration.sql` (in name order) on an in-memory PGlite with
// Prisma's WebAssembly schema engine and prints the SQL that takes that database to the datamodel
// of schema.prisma, i.e. what `prisma migrate dev --create-only` would write.
//
//   (no mode)      print the SQL of the next migration (nothing when there is none)
//   --name <name>  write it to <migrations>/<UTC YYYYMMDDHHMMSS>_<name>/migration.sql (and create
//                  <migrations>/migration_lock.toml if missing); print the path. Exit 0. The
//                  timestamp is moved past the newest existing migration if needed, so the new one
//                  always applies last. Writes nothing when there are no changes.
//   --check        print the SQL and exit 1 when the migrations do not produce the schema; exit 0
//                  when they agree (for CI and tests).
// Exit code 2 on usage or engine errors.
//
// Hand-written indexes: the engine ignores partial indexes (`CREATE UNIQUE INDEX ... WHERE
// effective_to IS NULL`) and expression indexes entirely, so they never appear in the diff (nor
// are they created by it: write them into a migration by hand). A plain index that schema.prisma
// does not declare would be dropped by the next migration; name it `manual_<something>` and the
// `DROP INDEX "manual_..."` statements are filtered out of the diff.
// DB_DIFF_DEBUG=1 prints the engine's log and its unfiltered output on stderr.
//
// The first run on a machine is slower because it runs PGlite's initdb and caches the empty
// cluster in $TMPDIR/cloudcost-db-diff/ (safe to delete). The schema engine keeps a timer alive
// after its work is done, so this script always ends with process.exit.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

import { MIGRATION_LOCK_TOML, schemaDiff } from "./schema-diff.mjs";

const USAGE =
  "Usage: node packages/db/bin/db-diff.mjs --schema <path/to/schema.prisma> --migrations <path/to/prisma/migrations> [--name <migration_name>] [--check]";

function fail(message) {
  process.stderr.write(`db-diff: ${message}\n`);
  process.exit(2);
}

function parseCli(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        schema: { type: "string" },
        migrations: { type: "string" },
        name: { type: "string" },
        check: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(`${error.message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!values.schema) fail(`missing --schema.\n${USAGE}`);
  if (!values.migrations) fail(`missing --migrations.\n${USAGE}`);
  if (values.name !== undefined && values.check) fail("--name and --check cannot be combined.");
  if (values.name !== undefined && !/^[A-Za-z0-9_]+$/.test(values.name)) {
    fail(`invalid --name "${values.name}": use letters, digits and underscores only.`);
  }
  const schemaPath = path.resolve(values.schema);
  const migrationsDir = path.resolve(values.migrations);
  if (!existsSync(schemaPath)) fail(`schema file not found: ${schemaPath}`);
  // A first migration may be written into a folder that does not exist yet.
  if (!existsSync(migrationsDir) && values.name === undefined) {
    fail(`migrations folder not found: ${migrationsDir} (create it, or pass --name to write the first migration)`);
  }
  return { schemaPath, migrationsDir, name: values.name, check: values.check };
}

function utcTimestamp(date) {
  return date.toISOString().replace(/\D/g, "").slice(0, 14);
}

// The current UTC time as YYYYMMDDHHMMSS, moved past the newest existing migration if needed so that
// the new folder always sorts (and therefore applies) last.
function nextMigrationTimestamp(migrationsDir) {
  const now = utcTimestamp(new Date());
  const latest = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d{14}_/.test(entry.name))
    .map((entry) => entry.name.slice(0, 14))
    .sort()
    .at(-1);
  if (latest === undefined || now > latest) return now;
  const [, y, mo, d, h, mi, sec] = latest.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/).map(Number);
  return utcTimestamp(new Date(Date.UTC(y, mo - 1, d, h, mi, sec + 1)));
}

async function main() {
  const { schemaPath, migrationsDir, name, check } = parseCli(process.argv.slice(2));
  if (name !== undefined) mkdirSync(migrationsDir, { recursive: true });

  const sql = await schemaDiff({ schemaPath, migrationsDir });

  if (check) {
    if (sql === "") {
      process.stdout.write("Migrations and schema agree: no schema changes.\n");
      return 0;
    }
    process.stdout.write(sql);
    process.stderr.write(`db-diff: the migrations in ${migrationsDir} do not produce ${schemaPath}; the SQL above is missing (write it with --name <name>).\n`);
    return 1;
  }

  if (name !== undefined) {
    if (sql === "") {
      process.stdout.write("No schema changes: nothing to write.\n");
      return 0;
    }
    const lockfile = path.join(migrationsDir, "migration_lock.toml");
    if (!existsSync(lockfile)) writeFileSync(lockfile, MIGRATION_LOCK_TOML);
    const dir = path.join(migrationsDir, `${nextMigrationTimestamp(migrationsDir)}_${name}`);
    if (existsSync(dir)) throw new Error(`${dir} already exists`);
    mkdirSync(dir);
    const file = path.join(dir, "migration.sql");
    writeFileSync(file, sql);
    const relative = path.relative(process.cwd(), file);
    process.stdout.write(`${relative.startsWith("..") ? file : relative}\n`);
    return 0;
  }

  process.stdout.write(sql);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`db-diff: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
