import { changeNotification, type Database } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { CatalogRow } from "./catalog-file";
import type { FittedRate } from "./catalog";

/** OpenCost's default on-demand rates (USD per vCPU-hour and per GB-hour), used where no fit is possible. */
export const DEFAULT_CPU_RATE = "0.031611";
export const DEFAULT_RAM_RATE = "0.004237";
/** A region needs at least this many general-purpose rows for its own fitted rates. */
export const MIN_FIT_ROWS = 10;

export interface CatalogVersion {
  version: string;
  seedSha256: string | null;
  rowCount: number;
  source: string;
}

const INSERT_CHUNK = 2000;

/** The change feed's topic: the catalog was replaced (the key is its new version). */
export const CATALOG_CHANGED = "pricing.compute_catalog";

const VERSION_COLUMNS = { version: "text", seed_sha256: "text null", row_count: "int4", source: "text" } as const;
const VERSION_SQL = `SELECT version, seed_sha256, row_count, source FROM compute_catalog_version WHERE id = 'compute'`;

export async function readCatalogVersion(db: Database): Promise<CatalogVersion | null> {
  const rows = await db.sql.query<RowOf<typeof VERSION_COLUMNS>>(VERSION_SQL);
  const row = rows[0];
  return row ? { version: row.version, seedSha256: row.seed_sha256, rowCount: row.row_count, source: row.source } : null;
}

/**
 * Replaces the whole catalog in one transaction: rows (batched INSERT ... SELECT FROM unnest), the
 * fitted rates, and the version row. Readers see the old catalog or the new one, never a mix.
 */
export async function replaceCatalog(prisma: Prisma, rows: CatalogRow[], version: CatalogVersion): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      await lockCatalog(tx);
      await tx.$executeRawUnsafe(`DELETE FROM compute_prices`);
      await insertRowsRefitAndRecord(tx, rows, version);
    },
    { maxWait: 60_000, timeout: 300_000 },
  );
}

const DELETE_SCOPES_SQL = `DELETE FROM compute_prices p USING unnest($1::text[], $2::text[]) AS s(provider, region)
         WHERE p.provider = s.provider AND p.region = s.region`;
const COUNT_COLUMNS = { n: "int4" } as const;
const COUNT_SQL = `SELECT (count(*) + $1::int)::int AS n FROM compute_prices`;

/**
 * Replaces the rows of the given (provider, region) pairs only, in one transaction with the refit
 * rates and the version row (its row count is the whole catalog's). Other pairs keep their rows.
 */
export async function replaceCatalogScopes(
  prisma: Prisma,
  rows: CatalogRow[],
  scopes: { provider: string; region: string }[],
  version: Omit<CatalogVersion, "rowCount">,
): Promise<number> {
  return prisma.$transaction(
    async (tx) => {
      await lockCatalog(tx);
      await tx.$executeRawUnsafe(
        DELETE_SCOPES_SQL,
        scopes.map((s) => s.provider),
        scopes.map((s) => s.region),
      );
      const [{ n }] = await tx.$queryRawUnsafe<RowOf<typeof COUNT_COLUMNS>[]>(COUNT_SQL, rows.length);
      await insertRowsRefitAndRecord(tx, rows, { ...version, rowCount: n });
      return n;
    },
    { maxWait: 60_000, timeout: 300_000 },
  );
}

type Tx = Parameters<Parameters<Prisma["$transaction"]>[0]>[0];

// Two imports at once take turns: each replaces rows and refits rates over the catalog the other committed.
const LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtext('compute_catalog'))::text`;
const lockCatalog = (tx: Tx) => tx.$queryRawUnsafe(LOCK_SQL);

const INSERT_ROWS_SQL = `INSERT INTO compute_prices (provider, region, instance_type, family, cpu_cores, ram_gb, gpu_count, burstable,
             general_purpose, architecture, operating_system, usage_type, price_per_hour, currency, source, price_date)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::int[],
             $8::boolean[], $9::boolean[], $10::text[], $11::text[], $12::text[], $13::numeric[], $14::text[], $15::text[], $16::date[])`;
const RECORD_VERSION_SQL = `INSERT INTO compute_catalog_version (id, version, seed_sha256, row_count, source, loaded_at)
         VALUES ('compute', $1, $2, $3, $4, now())
         ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version, seed_sha256 = EXCLUDED.seed_sha256,
           row_count = EXCLUDED.row_count, source = EXCLUDED.source, loaded_at = EXCLUDED.loaded_at`;

async function insertRowsRefitAndRecord(tx: Tx, rows: CatalogRow[], version: CatalogVersion): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    const column = <T>(pick: (r: CatalogRow) => T) => chunk.map(pick);
    await tx.$executeRawUnsafe(
      INSERT_ROWS_SQL,
      column((r) => r.provider),
      column((r) => r.region),
      column((r) => r.instanceType),
      column((r) => r.family),
      column((r) => r.cpuCores),
      column((r) => r.ramGb),
      column((r) => r.gpuCount),
      column((r) => r.burstable),
      column((r) => r.generalPurpose),
      column((r) => r.architecture),
      column((r) => r.operatingSystem),
      column((r) => r.usageType),
      column((r) => r.pricePerHour),
      column((r) => r.currency),
      column((r) => r.source),
      column((r) => r.priceDate),
    );
  }
  await tx.$executeRawUnsafe(`DELETE FROM compute_rates`);
  await tx.$executeRawUnsafe(FIT_RATES_SQL, MIN_FIT_ROWS, DEFAULT_CPU_RATE, DEFAULT_RAM_RATE);
  // Announced at commit to every replica (and to nobody if the transaction rolls back).
  const notification = changeNotification(CATALOG_CHANGED, version.version);
  await tx.$queryRawUnsafe(notification.sql, ...notification.params);
  await tx.$executeRawUnsafe(RECORD_VERSION_SQL, version.version, version.seedSha256, version.rowCount, version.source);
}

// Per provider and region, least squares without intercept of price = cpu_rate x vCPU + ram_rate x GB
// over on-demand Linux general-purpose rows without GPUs (burstable excluded), solved in exact
// numeric from the normal equations. Too few rows, a singular system or a negative coefficient
// falls back to OpenCost's defaults, for both rates together.
const FIT_RATES_SQL = `
INSERT INTO compute_rates (provider, region, cpu_rate, ram_rate, sample_rows, method)
WITH regions AS (
  SELECT DISTINCT provider, region FROM compute_prices
), sums AS (
  SELECT provider, region, count(*)::int AS n,
         sum(cpu_cores * cpu_cores) AS scc, sum(cpu_cores * ram_gb) AS scm, sum(ram_gb * ram_gb) AS smm,
         sum(price_per_hour * cpu_cores) AS spc, sum(price_per_hour * ram_gb) AS spm
  FROM compute_prices
  WHERE general_purpose AND NOT burstable AND gpu_count = 0 AND operating_system = 'linux' AND usage_type = 'on_demand'
  GROUP BY provider, region
), fit AS (
  SELECT provider, region, n,
         CASE WHEN scc * smm - scm * scm > 0 THEN (spc * smm - spm * scm) / (scc * smm - scm * scm) END AS a,
         CASE WHEN scc * smm - scm * scm > 0 THEN (spm * scc - spc * scm) / (scc * smm - scm * scm) END AS b
  FROM sums
)
SELECT r.provider, r.region,
       CASE WHEN ok THEN round(f.a, 10) ELSE $2::numeric END,
       CASE WHEN ok THEN round(f.b, 10) ELSE $3::numeric END,
       coalesce(f.n, 0),
       CASE WHEN ok THEN 'least_squares' ELSE 'opencost_default' END
FROM regions r
LEFT JOIN fit f USING (provider, region)
CROSS JOIN LATERAL (SELECT coalesce(f.n >= $1 AND f.a > 0 AND f.b > 0, false) AS ok) o`;

const CATALOG_COLUMNS = { version: "text null", rows: "text null", rates: "text null" } as const;
const CATALOG_SQL = `SELECT
       (SELECT version FROM compute_catalog_version WHERE id = 'compute') AS version,
       (SELECT json_agg(json_build_array(provider, region, instance_type, family, cpu_cores::text, ram_gb::text, gpu_count,
                 burstable, general_purpose, architecture, operating_system, usage_type, price_per_hour::text, currency,
                 source, to_char(price_date, 'YYYY-MM-DD')))::text FROM compute_prices) AS rows,
       (SELECT json_agg(json_build_array(provider, region, cpu_rate::text, ram_rate::text, sample_rows, method))::text
          FROM compute_rates) AS rates`;

/**
 * Every catalog row and rate and the version they belong to. One statement, so one snapshot on both
 * drivers (an import committing meanwhile is seen entirely or not at all); decimals travel as text.
 */
export async function readCatalog(db: Database): Promise<{ rows: CatalogRow[]; rates: FittedRate[]; version: string | null }> {
  const [result] = await db.sql.query<RowOf<typeof CATALOG_COLUMNS>>(CATALOG_SQL);
  const rows = JSON.parse(result.rows ?? "[]") as [
    string,
    string,
    string,
    string,
    string,
    string,
    number,
    boolean,
    boolean,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ][];
  const rates = JSON.parse(result.rates ?? "[]") as [string, string, string, string, number, string][];
  return {
    version: result.version,
    rows: rows.map((r) => ({
      provider: r[0],
      region: r[1],
      instanceType: r[2],
      family: r[3],
      cpuCores: r[4],
      ramGb: r[5],
      gpuCount: r[6],
      burstable: r[7],
      generalPurpose: r[8],
      architecture: r[9] as CatalogRow["architecture"],
      operatingSystem: r[10] as CatalogRow["operatingSystem"],
      usageType: r[11] as CatalogRow["usageType"],
      pricePerHour: r[12],
      currency: r[13],
      source: r[14],
      priceDate: r[15],
    })),
    rates: rates.map((r) => ({
      provider: r[0],
      region: r[1],
      cpuRate: r[2],
      ramRate: r[3],
      sampleRows: r[4],
      method: r[5] as FittedRate["method"],
    })),
  };
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "catalog version", sql: VERSION_SQL, columns: VERSION_COLUMNS },
    { name: "catalog lock", sql: LOCK_SQL, columns: { pg_advisory_xact_lock: "text" } },
    { name: "catalog scopes delete", sql: DELETE_SCOPES_SQL, columns: null },
    { name: "catalog row count", sql: COUNT_SQL, columns: COUNT_COLUMNS },
    { name: "catalog rows insert", sql: INSERT_ROWS_SQL, columns: null },
    { name: "catalog rates fit", sql: FIT_RATES_SQL, columns: null },
    { name: "catalog version record", sql: RECORD_VERSION_SQL, columns: null },
    { name: "catalog read", sql: CATALOG_SQL, columns: CATALOG_COLUMNS },
  ];
}
