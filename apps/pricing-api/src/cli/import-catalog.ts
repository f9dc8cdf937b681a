import fs from "node:fs";
import path from "node:path";
import { DataDirLockedError, openMigratedDatabase } from "@cloudcost/db";
import { createLogger } from "@cloudcost/http";
import { CatalogFileError } from "../compute/catalog-file";
import { importPriceFile } from "../compute/catalog-loader";
import { loadConfig } from "../config";
import { createPrisma, MIGRATIONS_DIR } from "../db";

// `pnpm --filter @cloudcost/pricing-api catalog:import <file.csv>`: replaces the compute catalog with
// a price file in the shared format (header provider,region,instance_type,family,vcpu,memory_gib,
// gpu_count,architecture,operating_system,purchase_option,price_per_hour_usd,price_date) in one
// transaction and refits the estimate rates. A bad row imports nothing.
// The embedded database belongs to one process: while the service runs this fails with a clear
// message (stop it first). Against PostgreSQL a running service picks the new catalog up within
// COMPUTE_CATALOG_REFRESH_MS.
async function main(): Promise<number> {
  const arg = process.argv[2];
  if (!arg || process.argv.length > 3) {
    console.error("usage: pnpm --filter @cloudcost/pricing-api catalog:import <file.csv>");
    return 2;
  }
  // pnpm runs scripts in the package folder; a relative path means the caller's folder.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), arg);
  if (!fs.existsSync(file)) {
    console.error(`No such file: ${file}`);
    return 2;
  }
  const text = fs.readFileSync(file, "utf8");
  const config = loadConfig();
  const logger = createLogger("pricing-api-catalog-import", config.logLevel === "info" ? "warn" : config.logLevel);
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const prisma = createPrisma(db.adapter);
  try {
    const started = performance.now();
    const result = await importPriceFile({ db, prisma }, text, { name: path.basename(file) });
    const ms = Math.round(performance.now() - started);
    console.log(`Imported ${result.rows} rows from ${file} into ${db.description} in ${ms} ms (catalog version ${result.version.slice(0, 12)}).`);
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
