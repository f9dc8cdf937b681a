// Drives bin/db-diff.mjs as a child process on scratch folders: the WebAssembly schema engine is
// ESM-only and cannot be loaded inside Jest's CommonJS sandbox. Each run costs ~3 s (mostly PGlite's
// initdb), so independent cases run in parallel.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const SCRIPT = path.join(__dirname, "..", "bin", "db-diff.mjs");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function dbDiff(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const HEADER = `generator client {
  provider     = "prisma-client"
  output       = "../src/generated/prisma"
  moduleFormat = "cjs"
}

datasource db {
  provider = "postgresql"
}
`;

const ORGANIZATION = `
model Organization {
  id        String   @id @default(uuid()) @db.Uuid
  name      String
  tags      String[]
  settings  Json     @default("{}")
  createdAt DateTime @default(now()) @map("created_at") @db.Timestamptz(6)
  fleets    Fleet[]

  @@map("organizations")
}
`;

function fleetModel(extraFields = ""): string {
  return `
model Fleet {
  id             String       @id @default(uuid()) @db.Uuid
  organizationId String       @map("organization_id") @db.Uuid
  hourlyCost     Decimal      @map("hourly_cost") @db.Decimal(14, 6)
  regions        String[]
  meta           Json?
${extraFields}  organization   Organization @relation(fields: [organizationId], references: [id], onDelete: Cascade)

  @@index([organizationId])
  @@map("fleets")
}
`;
}

const SCHEMA_V1 = HEADER + ORGANIZATION + fleetModel();
const SCHEMA_V2 = HEADER + ORGANIZATION + fleetModel(`  label          String?      @db.VarChar(80)\n`);

let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "db-diff-test-"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A scratch project: schema.prisma plus an (initially empty) migrations folder. */
function project(name: string, schema: string): { schema: string; migrations: string } {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "migrations"), { recursive: true });
  writeFileSync(path.join(dir, "schema.prisma"), schema);
  return { schema: path.join(dir, "schema.prisma"), migrations: path.join(dir, "migrations") };
}

function migrationFolders(migrations: string): string[] {
  return readdirSync(migrations, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function addMigration(migrations: string, folder: string, sql: string): void {
  mkdirSync(path.join(migrations, folder));
  writeFileSync(path.join(migrations, folder, "migration.sql"), sql);
}

/**
 * Each diff runs the schema engine (WebAssembly) over several migrations: a few seconds alone, over
 * 200 s while a whole `pnpm test` shares the two cores (seen once). A bound, not a wait.
 */
const DIFF_TIMEOUT_MS = 600_000;

test(
  "writes the first migration, agrees with it, detects a new field and writes the second migration",
  async () => {
    const p = project("lifecycle", SCHEMA_V1);

    // (1) Empty migrations folder: --name writes the whole schema as the first migration.
    const init = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--name", "init");
    expect(init.code).toBe(0);
    const [first] = migrationFolders(p.migrations);
    expect(first).toMatch(/^\d{14}_init$/);
    const firstFile = path.join(p.migrations, first, "migration.sql");
    expect(init.stdout.trim()).toBe(firstFile);
    const firstSql = readFileSync(firstFile, "utf8");
    expect(firstSql).toContain('CREATE TABLE "organizations"');
    expect(firstSql).toContain('"tags" TEXT[]');
    expect(firstSql).toContain(`"settings" JSONB NOT NULL DEFAULT '{}'`);
    expect(firstSql).toContain('"hourly_cost" DECIMAL(14,6) NOT NULL');
    expect(firstSql).toContain('CREATE INDEX "fleets_organization_id_idx"');
    expect(readFileSync(path.join(p.migrations, "migration_lock.toml"), "utf8")).toContain('provider = "postgresql"');

    // (2) The schema and the migrations agree.
    const agree = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--check");
    expect(agree).toMatchObject({ code: 0, stdout: "Migrations and schema agree: no schema changes.\n" });

    // (3) A new field: --check fails and prints the missing SQL.
    writeFileSync(p.schema, SCHEMA_V2);
    const drift = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--check");
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('ALTER TABLE "fleets" ADD COLUMN');
    expect(drift.stdout).toContain('"label" VARCHAR(80)');

    // (4) --name writes the second migration; then they agree again.
    const second = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--name", "add_field");
    expect(second.code).toBe(0);
    const folders = migrationFolders(p.migrations);
    expect(folders).toHaveLength(2);
    expect(folders[0]).toBe(first);
    expect(folders[1]).toMatch(/^\d{14}_add_field$/);
    expect(readFileSync(path.join(p.migrations, folders[1], "migration.sql"), "utf8")).toContain('ADD COLUMN     "label" VARCHAR(80)');

    const [agreeAgain, nothingToWrite] = await Promise.all([
      dbDiff("--schema", p.schema, "--migrations", p.migrations, "--check"),
      dbDiff("--schema", p.schema, "--migrations", p.migrations, "--name", "noop"),
    ]);
    expect(agreeAgain.code).toBe(0);
    expect(nothingToWrite).toMatchObject({ code: 0, stdout: "No schema changes: nothing to write.\n" });
    expect(migrationFolders(p.migrations)).toHaveLength(2);
  },
  DIFF_TIMEOUT_MS,
);

describe("edge cases", () => {
  test("prints the SQL without writing anything when no mode is given", async () => {
    const p = project("print", SCHEMA_V1);
    const run = await dbDiff("--schema", p.schema, "--migrations", p.migrations);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('CREATE TABLE "fleets"');
    expect(migrationFolders(p.migrations)).toEqual([]);
    expect(existsSync(path.join(p.migrations, "migration_lock.toml"))).toBe(false);
  }, 60_000);

  test(
    "hand-written indexes: partial and expression indexes are invisible, manual_ drops are filtered",
    async () => {
      const p = project("manual-indexes", SCHEMA_V1);
      const first = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--name", "init");
      expect(first.code).toBe(0);
      addMigration(
        p.migrations,
        "29990101000000_manual_indexes",
        [
          'ALTER TABLE "fleets" ADD COLUMN "effective_to" TIMESTAMPTZ(6);',
          'CREATE UNIQUE INDEX "fleets_one_open_key" ON "fleets"("organization_id") WHERE "effective_to" IS NULL;',
          'CREATE INDEX "fleets_lower_meta_idx" ON "fleets"((meta->>\'kind\'));',
          'CREATE INDEX "manual_fleets_regions" ON "fleets" USING GIN ("regions");',
          "",
        ].join("\n"),
      );
      writeFileSync(p.schema, HEADER + ORGANIZATION + fleetModel(`  effectiveTo    DateTime?    @map("effective_to") @db.Timestamptz(6)\n`));
      const withManual = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--check");
      expect(withManual).toMatchObject({ code: 0 });

      // The same plain index without the prefix would be dropped by the next migration.
      addMigration(p.migrations, "29990101000001_unmanaged_index", 'CREATE INDEX "fleets_meta_idx" ON "fleets"("hourly_cost");\n');
      const unmanaged = await dbDiff("--schema", p.schema, "--migrations", p.migrations, "--check");
      expect(unmanaged.code).toBe(1);
      expect(unmanaged.stdout).toBe('-- DropIndex\nDROP INDEX "fleets_meta_idx";\n');
    },
    DIFF_TIMEOUT_MS,
  );

  test("errors: missing arguments, missing files and a migration that does not apply", async () => {
    const p = project("errors", SCHEMA_V1);
    addMigration(p.migrations, "20250101000000_broken", 'ALTER TABLE "missing" ADD COLUMN "x" INTEGER;\n');

    const [noArgs, noSchema, noMigrations, broken] = await Promise.all([
      dbDiff("--check"),
      dbDiff("--schema", path.join(root, "nope.prisma"), "--migrations", p.migrations),
      dbDiff("--schema", p.schema, "--migrations", path.join(root, "nope"), "--check"),
      dbDiff("--schema", p.schema, "--migrations", p.migrations, "--check"),
    ]);
    expect(noArgs.code).toBe(2);
    expect(noArgs.stderr).toContain("missing --schema");
    expect(noArgs.stderr).toContain("Usage:");
    expect(noSchema.code).toBe(2);
    expect(noSchema.stderr).toContain("schema file not found");
    expect(noMigrations.code).toBe(2);
    expect(noMigrations.stderr).toContain("migrations folder not found");
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("20250101000000_broken");
    expect(broken.stderr).toContain("failed to apply cleanly");
  }, 60_000);
});
