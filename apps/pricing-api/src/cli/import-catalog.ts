import fs from "node:fs";
import path from "node:path";
import { DataDirLockedError, openMigratedDatabase } from "@cloudcost/db";
import { createLogger } from "@cloudcost/http";
import { CatalogFileError } from "../compute/catalog-file";
import { IMPORT_FORMATS, type ImportFormat, importProviderFiles } from "../compute/importers/import-files";
import { loadConfig } from "../config";
import { createPrisma, MIGRATIONS_DIR } from "../db";

// `pnpm --filter @cloudcost/pricing-api catalog:import [--format aws|azure|gcp|csv] <file>...`: reads a
// provider's own price file (docs/compute-pricing.md, "Importing the providers' price files") and
// replaces, in one transaction, the rows of the (provider, region) pairs it covers, then refits the
// estimate rates. A malformed file imports nothing (exit 1); bad usage exits 2.
// The embedded database belongs to one process: while the service runs this fails with a clear
// message (stop it first). Against PostgreSQL every running replica hears of the new catalog at
// commit (LISTEN/NOTIFY) and at the latest within COMPUTE_CATALOG_REFRESH_MS.
const USAGE = `usage: pnpm --filter @cloudcost/pricing-api catalog:import [--format aws|azure|gcp|csv] <file>...
  aws    an Amazon EC2 offer file (JSON or CSV)
  azure  one or more Azure Retail Prices API result pages (JSON)
  gcp    the Compute Engine SKU list (JSON), then the machine types list (JSON)
  csv    the project's price file (the default)`;

function parseArgs(argv: string[]): { format: ImportFormat; files: string[] } | null {
  let format: ImportFormat = "csv";
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = arg === "--format" ? argv[++i] : arg.startsWith("--format=") ? arg.slice("--format=".length) : undefined;
    if (value !== undefined) {
      if (!(IMPORT_FORMATS as readonly string[]).includes(value)) return null;
      format = value as ImportFormat;
    } else if (arg.startsWith("-")) return null;
    else files.push(arg);
  }
  return files.length > 0 ? { format, files } : null;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  // pnpm runs scripts in the package folder; a relative path means the caller's folder.
  const files = args.files.map((f) => path.resolve(process.env.INIT_CWD ?? process.cwd(), f));
  const missing = files.find((f) => !fs.existsSync(f));
  if (missing) {
    console.error(`No such file: ${missing}`);
    return 2;
  }
  const inputs = files.map((f) => ({ name: path.basename(f), text: fs.readFileSync(f, "utf8") }));
  const config = loadConfig();
  const logger = createLogger("pricing-api-catalog-import", config.logLevel === "info" ? "warn" : config.logLevel);
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const prisma = createPrisma(db.adapter);
  try {
    const started = performance.now();
    const result = await importProviderFiles({ db, prisma }, args.format, inputs);
    const ms = Math.round(performance.now() - started);
    const scopes = result.scopes.map((s) => `${s.provider}/${s.region}`).join(", ");
    console.log(
      `Imported ${result.rows} rows (${args.format}) into ${db.description} in ${ms} ms, replacing ${scopes}; the catalog holds ${result.catalogRows} rows (version ${result.version.slice(0, 12)}).`,
    );
    for (const [reason, n] of Object.entries(result.skipped)) console.log(`  skipped ${n}: ${reason}`);
    for (const warning of result.warnings) console.warn(`  warning: ${warning}`);
    return 0;
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof CatalogFileError) console.error(`Nothing imported: ${err.message}`);
    else if (err instanceof DataDirLockedError) console.error(`Nothing imported: ${err.message}`);
    else console.error("Nothing imported:", err);
    process.exit(1);
  },
);
