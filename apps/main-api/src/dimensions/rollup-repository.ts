import type { DimensionRule, SplitRule } from "@cloudcost/contracts";
import type { CheckedStatement } from "@cloudcost/db";
import type { Tx } from "../transactions";
import { fieldArray, LINE_FIELD_SQL } from "./repository";

/** The raw statements of a transaction (the ledger's writers pass theirs). */
export type RawTx = Pick<Tx, "$queryRawUnsafe" | "$executeRawUnsafe">;

/** spend_service_daily's dimensions: the dimension roll-up keeps them beside the value, so every query shape over them reads it. */
export const DIMENSION_ROLLUP_COLUMNS = [
  "currency",
  "source",
  "charge_category",
  "charge_frequency",
  "pricing_category",
  "provider",
  "service_name",
  "service_category",
  "unpriced_reason",
] as const;
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

/** Lines grouped by UTC day, tenant ('' none), the roll-up's columns ('' none) and the fields the rules read (in order). */
export interface RollupLineGroup extends Record<DimensionRollupColumn, string>, Record<RollupSum, string> {
  day: string;
  tenant_id: string;
  fields: (string | null)[];
  line_count: string;
}

/** One row to add to spend_dimension_daily (value '' is unallocated); sums signed. */
export interface DimensionRollupRow extends Record<DimensionRollupColumn, string>, Record<RollupSum, string> {
  dimension_key: string;
  day: string;
  tenant_id: string;
  value: string;
  line_count: number;
}

const LOCK = 0x64696d73;

/** Line writers of an organization share this lock; a version change and its re-apply hold it alone (lockDimensions). */
export async function lockDimensionsShared(tx: RawTx, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock_shared(${LOCK}, hashtext($1))::text AS locked`, organizationId);
}

/** lockDimensions (repository.ts) for a raw transaction: serializes with version changes and line writers. */
export async function lockDimensionsExclusive(tx: RawTx, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${LOCK}, hashtext($1))::text AS locked`, organizationId);
}

const VERSIONS_SQL = `SELECT key, version, to_char(effective_from, 'YYYY-MM') AS effective_from, rules, default_value, splits, status,
    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
  FROM dimension_versions WHERE organization_id = $1 ORDER BY key, version DESC`;

/** Every version of the organization's dimensions, by key then newest first. */
export function readRollupVersions(tx: RawTx, organizationId: string): Promise<RollupVersion[]> {
  return tx.$queryRawUnsafe<RollupVersion[]>(VERSIONS_SQL, organizationId);
}

/** The grouping of `selected` (a relation of spend_lines rows aliased l; $1 the organization, then `paramCount` parameters, then tag keys). */
export function lineGroupsSql(selected: string, paramCount: number, fields: string[]): string {
  let tagParam = paramCount + 2;
  const columns = fields.map((field) => (field.startsWith("tag:") ? `l.tags ->> $${tagParam++}::text` : LINE_FIELD_SQL[field as keyof typeof LINE_FIELD_SQL]));
  const dims = DIMENSION_ROLLUP_COLUMNS.map((name) => `coalesce(l.${name}, '') AS ${name}`).join(", ");
  const sums = ROLLUP_SUMS.map((name) => `trim_scale(coalesce(sum(l.${name}), 0))::text AS ${name}`).join(", ");
  const groupBy = [1, 2, ...DIMENSION_ROLLUP_COLUMNS.map((_, i) => i + 3), ...columns];
  return `SELECT (l.charge_period_start AT TIME ZONE 'UTC')::date::text AS day, coalesce(l.tenant_id, '') AS tenant_id, ${dims},
      ${fieldArray(columns)} AS fields, ${sums}, count(*)::text AS line_count
    FROM ${selected} l
    GROUP BY ${groupBy.join(", ")}`;
}

/** The lines of `selected` grouped as lineGroupsSql says. */
export function groupLines(tx: RawTx, organizationId: string, selected: string, params: unknown[], fields: string[]): Promise<RollupLineGroup[]> {
  const tags = fields.filter((field) => field.startsWith("tag:")).map((field) => field.slice("tag:".length));
  return tx.$queryRawUnsafe<RollupLineGroup[]>(lineGroupsSql(selected, params.length, fields), organizationId, ...params, ...tags);
}

const RECORD_COLUMNS = ["dimension_key", "day", "tenant_id", "value", ...DIMENSION_ROLLUP_COLUMNS] as const;
const ADD_SQL = `INSERT INTO spend_dimension_daily (organization_id, dimension_key, day, tenant_id, dims_key, value, ${DIMENSION_ROLLUP_COLUMNS.join(", ")},
      ${ROLLUP_SUMS.join(", ")}, line_count)
    SELECT $1, r.dimension_key, r.day::date, r.tenant_id, md5(jsonb_build_array(${[...DIMENSION_ROLLUP_COLUMNS, "value"].map((name) => `r.${name}`).join(", ")})::text),
      r.value, ${DIMENSION_ROLLUP_COLUMNS.map((name) => `r.${name}`).join(", ")}, ${ROLLUP_SUMS.map((name) => `r.${name}::numeric`).join(", ")}, r.line_count
    FROM jsonb_to_recordset($2::jsonb) AS r(${RECORD_COLUMNS.map((name) => `${name} text`).join(", ")}, ${ROLLUP_SUMS.map((name) => `${name} text`).join(", ")}, line_count bigint)
    ORDER BY 2, 3, 4, 5
    ON CONFLICT (organization_id, dimension_key, day, tenant_id, dims_key) DO UPDATE SET
      ${[...ROLLUP_SUMS, "line_count"].map((name) => `${name} = spend_dimension_daily.${name} + excluded.${name}`).join(", ")}`;

/** Adds the rows (signed) to spend_dimension_daily, in key order (concurrent writers lock rows in one order). */
export async function addRows(tx: RawTx, organizationId: string, rows: DimensionRollupRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(ADD_SQL, organizationId, JSON.stringify(rows));
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
  if (from === null || to === null) {
    await tx.$executeRawUnsafe("DELETE FROM spend_dimension_daily WHERE organization_id = $1 AND dimension_key = ANY($2::text[])", organizationId, keys);
    return;
  }
  await tx.$executeRawUnsafe(
    "DELETE FROM spend_dimension_daily WHERE organization_id = $1 AND dimension_key = ANY($2::text[]) AND day >= $3::date AND day < $4::date",
    organizationId,
    keys,
    from,
    to,
  );
}

/** The first and last UTC months of the organization's lines (YYYY-MM), or null without lines. */
export async function lineMonths(tx: RawTx, organizationId: string): Promise<{ first: string; last: string } | null> {
  const [row] = await tx.$queryRawUnsafe<{ first: string | null; last: string | null }[]>(
    `SELECT to_char(min(charge_period_start) AT TIME ZONE 'UTC', 'YYYY-MM') AS first, to_char(max(charge_period_start) AT TIME ZONE 'UTC', 'YYYY-MM') AS last
      FROM spend_lines WHERE organization_id = $1`,
    organizationId,
  );
  return row?.first && row.last ? { first: row.first, last: row.last } : null;
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
    {
      name: "dimension roll-up line groups",
      sql: lineGroupsSql("(SELECT * FROM spend_lines WHERE organization_id = $1)", 0, ["service_name", "tag:team"]),
      columns: {
        day: "text",
        tenant_id: "text",
        ...Object.fromEntries(DIMENSION_ROLLUP_COLUMNS.map((name) => [name, "text"])),
        fields: "jsonb",
        ...Object.fromEntries(ROLLUP_SUMS.map((name) => [name, "text"])),
        line_count: "text",
      },
    },
  ];
}
