import type { DimensionRule, SplitRule } from "@cloudcost/contracts";
import type { CheckedStatement } from "@cloudcost/db";
import { SERVICE_ROLLUP_DIMENSIONS } from "../spend/rollup-columns";
import type { Tx } from "../transactions";
import { fieldArray, LINE_FIELD_SQL } from "./repository";

/** The raw statements of a transaction (the ledger's writers pass theirs). */
export type RawTx = Pick<Tx, "$queryRawUnsafe" | "$executeRawUnsafe">;

/** spend_service_daily's dimensions: the dimension roll-up keeps them beside the value, so every query shape over them reads it. */
export const DIMENSION_ROLLUP_COLUMNS = SERVICE_ROLLUP_DIMENSIONS;
export type DimensionRollupColumn = (typeof DIMENSION_ROLLUP_COLUMNS)[number];
export const ROLLUP_SUMS = ["billed_cost", "effective_cost", "list_cost", "contracted_cost"] as const;
export type RollupSum = (typeof ROLLUP_SUMS)[number];

/** A version as the roll-up applies it (effective_from as YYYY-MM). */
export interface RollupVersion {
  key: string;
  version: number;
  effective_from: string;
  rules: DimensionRule[];
  default_value: string | null;
  splits: SplitRule[];
  status: string;
  created_at: string;
}

const VERSIONS_SQL = `SELECT key, version, to_char(effective_from, 'YYYY-MM') AS effective_from, rules, default_value, splits, status,
    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
  FROM dimension_versions WHERE organization_id = $1 ORDER BY key, version DESC`;

/** Every version of the organization's dimensions, by key then newest first. */
export function readRollupVersions(tx: RawTx, organizationId: string): Promise<RollupVersion[]> {
  return tx.$queryRawUnsafe<RollupVersion[]>(VERSIONS_SQL, organizationId);
}

/** The SQL of each field the rules read (tag keys are parameters from `firstTagParam` on). */
function fieldColumns(fields: string[], firstTagParam: number): string[] {
  let tagParam = firstTagParam;
  return fields.map((field) => (field.startsWith("tag:") ? `l.tags ->> $${tagParam++}::text` : LINE_FIELD_SQL[field as keyof typeof LINE_FIELD_SQL]));
}

/**
 * The distinct (UTC month, values of the fields the rules read) of `selected` (a relation of
 * spend_lines rows aliased l; $1 the organization, then `paramCount` parameters, then tag keys):
 * grouped on the columns themselves, the JSON array built once per combination.
 */
export function combinationsSql(selected: string, paramCount: number, fields: string[]): string {
  const columns = fieldColumns(fields, paramCount + 2);
  return `SELECT to_char(date_trunc('month', l.charge_period_start AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, ${fieldArray(columns)} AS fields
    FROM ${selected} l GROUP BY date_trunc('month', l.charge_period_start AT TIME ZONE 'UTC')${columns.map((column) => `, ${column}`).join("")}`;
}

/** One (month, field values) combination of lines: what the rules are evaluated on, once. */
export interface LineCombination {
  month: string;
  fields: (string | null)[];
}

export function lineCombinations(tx: RawTx, organizationId: string, selected: string, params: unknown[], fields: string[]): Promise<LineCombination[]> {
  const tags = fields.filter((field) => field.startsWith("tag:")).map((field) => field.slice("tag:".length));
  return tx.$queryRawUnsafe<LineCombination[]>(combinationsSql(selected, params.length, fields), organizationId, ...params, ...tags);
}

/** A combination's value under one dimension ('' unallocated). */
export interface CombinationValue extends LineCombination {
  key: string;
  value: string;
}

const DIMS = DIMENSION_ROLLUP_COLUMNS.join(", ");
const SUMS = [...ROLLUP_SUMS, "line_count"];
const addSums = (table: string) => SUMS.map((name) => `${name} = ${table}.${name} + excluded.${name}`).join(", ");

/**
 * Adds `sign` times the lines of `selected` to both dimension roll-ups in one statement: the lines
 * grouped by day, tenant, the roll-up's columns and their (month, field values) combination,
 * joined to that combination's value under each dimension (`$<n>`: CombinationValue[] as JSON),
 * summed per row of spend_dimension_daily (upserted in key order), and those deltas summed per
 * (dimension, day, currency, value) into spend_dimension_value_daily (priced lines only). Answers the days touched.
 */
export function addLinesSql(selected: string, paramCount: number, fields: string[], sign: 1 | -1): string {
  const tagCount = fields.filter((field) => field.startsWith("tag:")).length;
  return upsertGroupsSql(`(${groupedLinesSql(selected, paramCount, fields, sign)})`, `$${paramCount + 2 + tagCount}`);
}

/**
 * The lines of `selected` grouped by day, month, tenant, the roll-up's columns and the fields the
 * rules read (on the columns themselves: the JSON array of a group's values is built once per group).
 */
function groupedLinesSql(selected: string, paramCount: number, fields: string[], sign: 1 | -1): string {
  const sums = ROLLUP_SUMS.map((name) => `${sign} * coalesce(sum(l.${name}), 0) AS ${name}`).join(", ");
  const columns = fieldColumns(fields, paramCount + 2);
  return `SELECT (l.charge_period_start AT TIME ZONE 'UTC')::date AS day, to_char((l.charge_period_start AT TIME ZONE 'UTC')::date, 'YYYY-MM') AS month,
        coalesce(l.tenant_id, '') AS tenant_id, ${DIMENSION_ROLLUP_COLUMNS.map((name) => `coalesce(l.${name}, '') AS ${name}`).join(", ")},
        ${fieldArray(columns)} AS fields, ${sums}, ${sign} * count(*) AS line_count
      FROM ${selected} l
      GROUP BY 1, 3, ${DIMENSION_ROLLUP_COLUMNS.map((_, i) => i + 4).join(", ")}${columns.map((column) => `, ${column}`).join("")}`;
}

/** Groups `g` (as groupedLinesSql makes them) joined to their values (`mapping`, a CombinationValue[] JSON parameter) and upserted into both roll-ups. */
function upsertGroupsSql(groups: string, mapping: string): string {
  return `WITH g AS ${groups},
    d AS MATERIALIZED (
      SELECT m.key COLLATE "C" AS dimension_key, g.day, g.tenant_id COLLATE "C" AS tenant_id, m.value COLLATE "C" AS value,
        ${DIMENSION_ROLLUP_COLUMNS.map((name) => `g.${name} COLLATE "C" AS ${name}`).join(", ")},
        ${SUMS.map((name) => `sum(g.${name}) AS ${name}`).join(", ")}
      FROM g JOIN jsonb_to_recordset(${mapping}::jsonb) AS m(month text, fields jsonb, key text, value text) ON m.month = g.month AND m.fields = g.fields
      GROUP BY ${[1, 2, 3, 4, ...DIMENSION_ROLLUP_COLUMNS.map((_, i) => i + 5)].join(", ")}),
    rows AS (
      INSERT INTO spend_dimension_daily (organization_id, dimension_key, day, tenant_id, dims_key, value, ${DIMS}, ${SUMS.join(", ")})
      SELECT $1, dimension_key, day, tenant_id, md5(jsonb_build_array(${DIMS}, value)::text) COLLATE "C", value, ${DIMS}, ${SUMS.join(", ")} FROM d
      ORDER BY 2, 3, 4, 5
      ON CONFLICT (organization_id, dimension_key, day, tenant_id, dims_key) DO UPDATE SET ${addSums("spend_dimension_daily")}
      RETURNING 1),
    value_rows AS (
      INSERT INTO spend_dimension_value_daily (organization_id, dimension_key, day, currency, value, ${SUMS.join(", ")})
      SELECT $1, dimension_key, day, currency, value, ${SUMS.map((name) => `sum(${name})`).join(", ")}
      FROM d WHERE unpriced_reason = '' AND (SELECT count(*) FROM rows) >= 0
      GROUP BY dimension_key, day, currency, value
      ORDER BY 2, 3, 4, 5
      ON CONFLICT (organization_id, dimension_key, day, currency, value) DO UPDATE SET ${addSums("spend_dimension_value_daily")}
      RETURNING 1)
    SELECT DISTINCT day::text AS day FROM d WHERE (SELECT count(*) FROM value_rows) >= 0`;
}

const STAGED = "dimension_rebuild_groups";

/**
 * A rebuild's chunk in one read of its lines: grouped into a temporary table (dropped at commit),
 * its (month, field values) combinations read from that table, and the table's groups upserted
 * with their values. Answers the combinations, for `addStaged`.
 */
export async function stageLines(
  tx: RawTx,
  organizationId: string,
  selected: string,
  params: unknown[],
  fields: string[],
  sign: 1 | -1 = 1,
): Promise<LineCombination[]> {
  const tags = fields.filter((field) => field.startsWith("tag:")).map((field) => field.slice("tag:".length));
  await tx.$executeRawUnsafe(`DROP TABLE IF EXISTS ${STAGED}`);
  await tx.$executeRawUnsafe(
    `CREATE TEMPORARY TABLE ${STAGED} ON COMMIT DROP AS ${groupedLinesSql(selected, params.length, fields, sign)}`,
    organizationId,
    ...params,
    ...tags,
  );
  return tx.$queryRawUnsafe<LineCombination[]>(`SELECT DISTINCT month, fields FROM ${STAGED}`);
}

/** The staged groups (stageLines, same transaction) added to both roll-ups with their values; the table dropped. Answers the days touched. */
export async function addStaged(tx: RawTx, organizationId: string, mapping: CombinationValue[]): Promise<string[]> {
  const rows = mapping.length
    ? await tx.$queryRawUnsafe<{ day: string }[]>(upsertGroupsSql(`(SELECT * FROM ${STAGED})`, "$2"), organizationId, JSON.stringify(mapping))
    : [];
  await tx.$executeRawUnsafe(`DROP TABLE ${STAGED}`);
  return rows.map((row) => row.day);
}

/** addLinesSql run: answers the days touched. */
export async function addLines(
  tx: RawTx,
  organizationId: string,
  selected: string,
  params: unknown[],
  fields: string[],
  mapping: CombinationValue[],
  sign: 1 | -1,
): Promise<string[]> {
  if (mapping.length === 0) return [];
  const tags = fields.filter((field) => field.startsWith("tag:")).map((field) => field.slice("tag:".length));
  const rows = await tx.$queryRawUnsafe<{ day: string }[]>(
    addLinesSql(selected, params.length, fields, sign),
    organizationId,
    ...params,
    ...tags,
    JSON.stringify(mapping),
  );
  return rows.map((row) => row.day);
}

/** Removes the rows of these days left without lines. */
export async function dropEmptyRows(tx: RawTx, organizationId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  await tx.$executeRawUnsafe("DELETE FROM spend_dimension_daily WHERE organization_id = $1 AND day = ANY($2::date[]) AND line_count = 0", organizationId, [
    ...new Set(days),
  ]);
}

/** Removes the rows of these dimensions in [from, to) (days, YYYY-MM-DD); every day when `from` is null. */
export async function clearRows(tx: RawTx, organizationId: string, keys: string[], from: string | null, to: string | null): Promise<void> {
  for (const table of ["spend_dimension_daily", "spend_dimension_value_daily"]) {
    if (from === null || to === null)
      await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE organization_id = $1 AND dimension_key = ANY($2::text[])`, organizationId, keys);
    else
      await tx.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE organization_id = $1 AND dimension_key = ANY($2::text[]) AND day >= $3::date AND day < $4::date`,
        organizationId,
        keys,
        from,
        to,
      );
  }
}

const CHUNKS_SQL = `SELECT DISTINCT tenant_id, to_char(day, 'YYYY-MM') AS month FROM spend_daily WHERE organization_id = $1 ORDER BY 2, 1`;

/** The (tenant, UTC month) pairs the organization's lines fall in ('' the unallocated lines), by month: a rebuild's chunks, each read through the lines' (organization, tenant, charge start) index. */
export function lineChunks(tx: RawTx, organizationId: string): Promise<{ tenant_id: string; month: string }[]> {
  return tx.$queryRawUnsafe(CHUNKS_SQL, organizationId);
}

/** The lines of one chunk as a relation for addLinesSql ($2 the tenant unless unallocated, then the range). */
export const chunkLines = (unallocated: boolean) =>
  unallocated
    ? "(SELECT * FROM spend_lines l WHERE l.organization_id = $1 AND l.tenant_id IS NULL AND l.charge_period_start >= $2::timestamptz AND l.charge_period_start < $3::timestamptz)"
    : "(SELECT * FROM spend_lines l WHERE l.organization_id = $1 AND l.tenant_id = $2 AND l.charge_period_start >= $3::timestamptz AND l.charge_period_start < $4::timestamptz)";

/** Removes one tenant's rows ('' unallocated) of these dimensions in [from, to) from spend_dimension_daily. */
export async function clearTenantRows(tx: RawTx, organizationId: string, keys: string[], tenantId: string, from: string, to: string): Promise<void> {
  await tx.$executeRawUnsafe(
    "DELETE FROM spend_dimension_daily WHERE organization_id = $1 AND dimension_key = ANY($2::text[]) AND tenant_id = $3 AND day >= $4::date AND day < $5::date",
    organizationId,
    keys,
    tenantId,
    from,
    to,
  );
}

/** spend_dimension_value_daily of these dimensions in [from, to) made again from spend_dimension_daily (after a rebuild of its tenants' rows). */
export async function rebuildValueRows(tx: RawTx, organizationId: string, keys: string[], from: string, to: string): Promise<void> {
  await tx.$executeRawUnsafe(
    "DELETE FROM spend_dimension_value_daily WHERE organization_id = $1 AND dimension_key = ANY($2::text[]) AND day >= $3::date AND day < $4::date",
    organizationId,
    keys,
    from,
    to,
  );
  await tx.$executeRawUnsafe(
    `INSERT INTO spend_dimension_value_daily (organization_id, dimension_key, day, currency, value, ${SUMS.join(", ")})
     SELECT organization_id, dimension_key, day, currency, value, ${SUMS.map((name) => `sum(${name})`).join(", ")}
       FROM spend_dimension_daily
      WHERE organization_id = $1 AND dimension_key = ANY($2::text[]) AND day >= $3::date AND day < $4::date AND unpriced_reason = ''
      GROUP BY 1, 2, 3, 4, 5
     HAVING sum(line_count) <> 0`,
    organizationId,
    keys,
    from,
    to,
  );
}

/** Marks the processing versions of `keys` created at or before `asOf` applied; answers them. */
export function markApplied(tx: RawTx, organizationId: string, keys: string[], asOf: string): Promise<{ key: string; version: number; applied_at: string }[]> {
  return tx.$queryRawUnsafe(
    `UPDATE dimension_versions SET status = 'applied', applied_at = now()
      WHERE organization_id = $1 AND key = ANY($2::text[]) AND status = 'processing' AND created_at <= $3::timestamptz
      RETURNING key, version, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS applied_at`,
    organizationId,
    keys,
    asOf,
  );
}

/** Organizations with a version still to apply. */
export function organizationsToApply(tx: RawTx, limit: number): Promise<{ organization_id: string }[]> {
  return tx.$queryRawUnsafe("SELECT DISTINCT organization_id FROM dimension_versions WHERE status = 'processing' ORDER BY organization_id LIMIT $1", limit);
}

export function checkedStatements(): CheckedStatement[] {
  return [
    {
      name: "dimension roll-up versions",
      sql: VERSIONS_SQL,
      columns: {
        key: "text",
        version: "int4",
        effective_from: "text",
        rules: "jsonb",
        default_value: "text null",
        splits: "jsonb",
        status: "text",
        created_at: "text",
      },
    },
    { name: "dimension rebuild chunks", sql: CHUNKS_SQL, columns: { tenant_id: "text", month: "text" } },
    {
      name: "dimension roll-up line combinations",
      sql: combinationsSql("(SELECT * FROM spend_lines WHERE organization_id = $1)", 0, ["service_name", "tag:team"]),
      columns: { month: "text", fields: "jsonb" },
    },
    {
      name: "dimension roll-up add lines",
      sql: addLinesSql("(SELECT * FROM spend_lines WHERE organization_id = $1)", 0, ["service_name", "tag:team"], -1),
      columns: { day: "text" },
    },
  ];
}
