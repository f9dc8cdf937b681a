import type { SqlClient } from "@cloudcost/db";
import {
  COMMITMENT_ROLLUP_DIMENSIONS,
  COVERAGE_ROLLUP_DIMENSIONS,
  eligibleUsage,
  LINE_HOURS,
  MAX_SPREAD_HOURS,
  ONDEMAND_LINE,
  onDemandEquivalent,
} from "../spend/commitment-rollups-repository";
import { coveredUsage } from "../spend/resource-costs-repository";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

/**
 * Commitment utilization, coverage and the on-demand hourly series, aggregated in the database
 * from the roll-ups spend/lines-repository.ts keeps (spend/commitment-rollups-repository.ts). Whole UTC days of a range
 * come from spend_commitment_daily (utilization) or spend_coverage_daily (coverage; its whole
 * months from spend_coverage_monthly), the partial days at its edges from the lines. What a
 * commitment could cover is eligibleUsage (commitment-rollups-repository.ts), the coverage and hourly roll-ups
 * hold only that usage; what it did cover is coveredUsage.
 */

/** Covered usage (the ledger's one rule) over a source row `s`. */
const COVERED = coveredUsage("s");
/** Usage a commitment could have covered: everything but the Unused commitment lines (the unspent part of a commitment, not usage). */
const USAGE = "s.commitment_discount_status <> 'Unused'";
/** Purchase recommendations are made in US dollars, the currency of the rates; utilization and coverage are per currency. */
const CURRENCY = "USD";

/** A range as the statements take it: whole days from the roll-ups, the rest from the lines. */
export interface RangeParams {
  organizationId: string;
  /** null: every tenant and the unallocated lines. */
  tenantIds: string[] | null;
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;
/** $1 organization, $2/$3 the roll-up's days, $4-$7 the two line ranges (monthValues: $10/$11 its whole months). */
function rangeValues(range: RangeParams): unknown[] {
  const startMs = Date.parse(range.start);
  const endMs = Date.parse(range.end);
  const dayStart = Math.ceil(startMs / DAY_MS) * DAY_MS;
  const dayEnd = Math.floor(endMs / DAY_MS) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  if (dayStart >= dayEnd) return [range.organizationId, iso(dayStart), iso(dayStart), iso(startMs), iso(endMs), iso(endMs), iso(endMs)];
  return [range.organizationId, iso(dayStart), iso(dayEnd), iso(startMs), iso(dayStart), iso(dayEnd), iso(endMs)];
}

/**
 * The whole UTC months inside the range's whole days, [first, last) (both the first whole day when
 * there is none): a long range reads them from a monthly roll-up.
 */
function monthValues(range: RangeParams): [string, string] {
  const [, dayStart, dayEnd] = rangeValues(range) as [string, string, string];
  const start = new Date(dayStart);
  const end = new Date(dayEnd);
  const first = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + (start.getUTCDate() === 1 ? 0 : 1), 1));
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
  return first < last ? [first.toISOString(), last.toISOString()] : [dayStart, dayStart];
}

/** The roll-up's whole days and the lines of the partial ones. */
const IN_RANGE = {
  days: "d.day >= $2::timestamptz::date AND d.day < $3::timestamptz::date",
  daysOutsideMonths:
    "((d.day >= $2::timestamptz::date AND d.day < $10::timestamptz::date) OR (d.day >= $11::timestamptz::date AND d.day < $3::timestamptz::date))",
  months: "m.day >= $10::timestamptz::date AND m.day < $11::timestamptz::date",
  lines:
    "((l.charge_period_start >= $4::timestamptz AND l.charge_period_start < $5::timestamptz) OR (l.charge_period_start >= $6::timestamptz AND l.charge_period_start < $7::timestamptz))",
};

/**
 * The rows of `table` (a daily roll-up) in the range, then the Usage lines of the partial days
 * (those `lineWhere` keeps), as the same columns. With `monthly` (the same roll-up by month), the
 * whole months $10 to $11 come from it and only the days outside them from `table`.
 */
const source = (table: string, columns: readonly string[], rollupWhere: (alias: string) => string, lineWhere: string, monthly?: string) => `
  SELECT ${columns.map((name) => `d.${name}`).join(", ")}, d.effective_cost, d.on_demand_equivalent
    FROM ${table} d
   WHERE d.organization_id = $1 AND ${monthly ? IN_RANGE.daysOutsideMonths : IN_RANGE.days}${rollupWhere("d")}
  UNION ALL${
    monthly
      ? `
  SELECT ${columns.map((name) => `m.${name}`).join(", ")}, m.effective_cost, m.on_demand_equivalent
    FROM ${monthly} m
   WHERE m.organization_id = $1 AND ${IN_RANGE.months}${rollupWhere("m")}
  UNION ALL`
      : ""
  }
  SELECT ${columns.map((name) => `coalesce(l.${name}, '')`).join(", ")}, coalesce(l.effective_cost, 0), ${onDemandEquivalent("l")}
    FROM spend_lines l
   WHERE l.organization_id = $1 AND l.charge_category = 'Usage' AND ${IN_RANGE.lines} AND ${lineWhere}`;

const UTILIZATION_SOURCE = source("spend_commitment_daily", COMMITMENT_ROLLUP_DIMENSIONS, () => "", "l.commitment_discount_id IS NOT NULL");

const UTILIZATION_COLUMNS = {
  commitment_discount_id: "text",
  currency: "text",
  category: "text",
  type: "text",
  provider: "text",
  billing_account_id: "text",
  used_cost: "text",
  unused_cost: "text",
  on_demand_equivalent: "text",
} as const;
export type UtilizationRow = RowOf<typeof UTILIZATION_COLUMNS>;

const UTILIZATION_SQL = `SELECT s.commitment_discount_id, s.currency, max(s.commitment_discount_category) AS category, max(s.commitment_discount_type) AS type,
    max(s.provider) AS provider, max(s.billing_account_id) AS billing_account_id,
    coalesce(sum(s.effective_cost) FILTER (WHERE s.commitment_discount_status = 'Used'), 0)::text AS used_cost,
    coalesce(sum(s.effective_cost) FILTER (WHERE s.commitment_discount_status = 'Unused'), 0)::text AS unused_cost,
    coalesce(sum(s.on_demand_equivalent) FILTER (WHERE ${COVERED}), 0)::text AS on_demand_equivalent
  FROM (${UTILIZATION_SOURCE}) s
  GROUP BY s.commitment_discount_id, s.currency
  ORDER BY s.commitment_discount_id COLLATE "C", s.currency COLLATE "C"`;

/**
 * Per commitment id (and currency) with Usage charges in the range: its Used and Unused effective
 * cost and the on-demand equivalent of the usage it covered. The whole organization (the operation
 * is for owners and admins).
 */
export function findUtilization(sql: SqlClient, range: RangeParams): Promise<UtilizationRow[]> {
  return sql.query<UtilizationRow>(UTILIZATION_SQL, rangeValues(range));
}

const COVERAGE_SOURCE = source(
  "spend_coverage_daily",
  COVERAGE_ROLLUP_DIMENSIONS,
  (alias) => ` AND ($8::text[] IS NULL OR ${alias}.tenant_id = ANY($8::text[]))`,
  `${eligibleUsage("l")} AND ($8::text[] IS NULL OR l.tenant_id = ANY($8::text[]))`,
  "spend_coverage_monthly",
);

const COVERAGE_COLUMNS = {
  grouped: "int4",
  provider: "text",
  currency: "text",
  grp: "text",
  covered_on_demand_equivalent: "text",
  on_demand_cost: "text",
} as const;
export type CoverageRowData = RowOf<typeof COVERAGE_COLUMNS>;

/**
 * $8 the caller's tenants (null: all), $9 the group (service_name, region, sub_account_id or
 * tenant). Eligible usage only (the roll-ups hold nothing else; the partial days' lines are
 * filtered by eligibleUsage), per provider and currency: the on-demand equivalent of the covered
 * usage and the on-demand cost of the rest. The rows are first summed per provider, currency,
 * group, pricing category and status (one pass), so that the totals read a few rows.
 */
const COVERAGE_SQL = `WITH s AS (
    SELECT x.provider, x.currency,
      CASE $9::text WHEN 'service_name' THEN x.service_name WHEN 'region' THEN x.region WHEN 'sub_account_id' THEN x.sub_account_id ELSE x.tenant_id END AS grp,
      x.pricing_category, x.commitment_discount_status, sum(x.effective_cost) AS effective_cost, sum(x.on_demand_equivalent) AS on_demand_equivalent
    FROM (${COVERAGE_SOURCE}) x
    GROUP BY 1, 2, 3, 4, 5)
  SELECT GROUPING(s.grp)::int AS grouped, s.provider, s.currency, s.grp,
    coalesce(sum(s.on_demand_equivalent) FILTER (WHERE ${COVERED}), 0)::text AS covered_on_demand_equivalent,
    coalesce(sum(s.effective_cost) FILTER (WHERE s.pricing_category = 'Standard'), 0)::text AS on_demand_cost
  FROM s WHERE ${USAGE}
  GROUP BY s.provider, s.currency, ROLLUP (s.grp)
  ORDER BY s.provider COLLATE "C", s.currency COLLATE "C", GROUPING(s.grp), s.grp COLLATE "C"`;

/** Coverage per provider, currency and group, and per provider and currency in total (the rows with `grouped` 1). */
export function findCoverage(sql: SqlClient, range: RangeParams, groupBy: string): Promise<CoverageRowData[]> {
  return sql.query<CoverageRowData>(COVERAGE_SQL, [...rangeValues(range), range.tenantIds, groupBy, ...monthValues(range)]);
}

/**
 * Per provider of $3 (lower case): the last hour with eligible on-demand usage before $2 (null:
 * none), each a backward scan of the roll-up's (organization_id, hour) key.
 */
const LAST_HOURS_SQL = `SELECT p.provider,
    (SELECT max(h.hour) FROM spend_ondemand_hourly h
      WHERE h.organization_id = $1 AND h.hour < $2::timestamptz AND h.currency = '${CURRENCY}' AND lower(h.provider) = p.provider) AS last_hour
  FROM unnest($3::text[]) AS p(provider)`;
const LAST_HOURS_COLUMNS = { provider: "text", last_hour: "timestamptz null" } as const;

/** The last hour with eligible on-demand usage before `before`, per provider (compared case-insensitively, keyed in lower case). */
export async function findLastOnDemandHours(sql: SqlClient, organizationId: string, before: Date, providers: string[]): Promise<Map<string, Date | null>> {
  const rows = await sql.query<RowOf<typeof LAST_HOURS_COLUMNS>>(LAST_HOURS_SQL, [
    organizationId,
    before.toISOString(),
    [...new Set(providers.map((provider) => provider.toLowerCase()))],
  ]);
  return new Map(rows.map((row) => [row.provider, row.last_hour]));
}

/** The scope of a commitment rate in the ledger: its provider (required), and '' for a category or region that matches everything. */
export interface SeriesScope {
  provider: string;
  serviceCategory: string;
  region: string;
}

const SERIES_COLUMNS = { scope: "int4", same_as: "int4", hours: "text[] null", costs: "text[] null" } as const;
/**
 * One scope of the list asked for (`scope`, its position from 1): the scopes that name the same
 * series (provider compared case-insensitively) point to the first of them (`same_as`), which alone
 * carries the series: `hours` (hours since the start, as text) and `costs`, hours without any cost absent.
 */
export type SeriesRow = RowOf<typeof SERIES_COLUMNS>;

/**
 * The hourly on-demand effective cost of eligible usage (the roll-up holds nothing else) in
 * [$2, $3) for each scope of $4-$6 (its provider, compared case-insensitively, service category and
 * region; '' matches every category or region). One pass over the roll-up whatever the number of
 * scopes: its rows are summed per hour and provider for the four ways a scope can name (or leave
 * open) category and region (GROUPING SETS), each sum keyed as a scope of that way is (`key`, a
 * JSON array), so every hour of a series is the sum of exactly the rows its scope matches. A sum
 * finds its scope by its key's position in the scopes' keys (the first scope with that key), not by
 * a join whose plan would depend on the tables' statistics.
 */
const SERIES_SQL = `WITH asked AS (
    SELECT s.n::int AS scope, lower(s.provider) AS provider,
           jsonb_build_array(lower(s.provider), s.service_category = '', s.service_category, s.region = '', s.region)::text AS key
      FROM unnest($4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS s(provider, service_category, region, n)),
  keys AS (SELECT array_agg(a.key ORDER BY a.scope) AS keys FROM asked a),
  sums AS (
    SELECT h.hour,
           jsonb_build_array(lower(h.provider),
             GROUPING(h.service_category) = 1, CASE WHEN GROUPING(h.service_category) = 1 THEN '' ELSE h.service_category END,
             GROUPING(h.region) = 1, CASE WHEN GROUPING(h.region) = 1 THEN '' ELSE h.region END)::text AS key,
           sum(h.effective_cost) AS cost
      FROM spend_ondemand_hourly h
     WHERE h.organization_id = $1 AND h.hour >= $2::timestamptz AND h.hour < $3::timestamptz AND h.currency = '${CURRENCY}'
       AND lower(h.provider) IN (SELECT provider FROM asked)
     GROUP BY GROUPING SETS ((h.hour, lower(h.provider), h.service_category, h.region), (h.hour, lower(h.provider), h.service_category),
                             (h.hour, lower(h.provider), h.region), (h.hour, lower(h.provider)))),
  series AS (
    SELECT array_position(k.keys, g.key) AS scope,
           array_agg(((extract(epoch FROM g.hour - $2::timestamptz) / 3600)::int)::text) AS hours,
           array_agg(g.cost::text) AS costs
      FROM sums g CROSS JOIN keys k
     WHERE g.key = ANY(k.keys)
     GROUP BY 1)
  SELECT a.scope, array_position(k.keys, a.key) AS same_as, x.hours, x.costs
    FROM asked a CROSS JOIN keys k LEFT JOIN series x ON x.scope = a.scope
   ORDER BY a.scope`;

/** Every scope's hourly series over [start, end), in one statement (a row per scope, in order). */
export function findOnDemandSeries(sql: SqlClient, organizationId: string, start: Date, end: Date, scopes: SeriesScope[]): Promise<SeriesRow[]> {
  return sql.query<SeriesRow>(SERIES_SQL, [
    organizationId,
    start.toISOString(),
    end.toISOString(),
    scopes.map((scope) => scope.provider),
    scopes.map((scope) => scope.serviceCategory),
    scopes.map((scope) => scope.region),
  ]);
}

/**
 * The instance family of an inventory resource's type, as the commitment rates name it: the part
 * before the first '.' (AWS m5.large: m5) or else before the first '-' (GCP n2-standard-4: n2),
 * lower case; a type with neither has no known family.
 */
export const RESOURCE_FAMILY = (type: string) =>
  `CASE WHEN strpos(${type}, '.') > 0 THEN lower(split_part(${type}, '.', 1)) WHEN strpos(${type}, '-') > 0 THEN lower(split_part(${type}, '-', 1)) END`;

const FAMILY_SERIES_COLUMNS = { hour: "text", cost: "text" } as const;
type FamilySeriesRow = RowOf<typeof FAMILY_SERIES_COLUMNS>;

/**
 * The hourly on-demand effective cost in [$2, $3) of the eligible lines (as the hourly roll-up
 * holds them: ONDEMAND_LINE, each spread evenly over its hours) of one scope ($4 provider compared
 * case-insensitively, $5 category, $6 region, '' for any) whose resource is an inventory resource
 * of family $7 (RESOURCE_FAMILY of its type). The family's resources first, then each one's lines
 * through the (organization_id, resource_id, charge_period_start) index.
 */
const FAMILY_SERIES_SQL = `WITH r AS (
    SELECT DISTINCT c.tenant_id, c.resource_id FROM compute_resources c
     WHERE c.organization_id = $1 AND ${RESOURCE_FAMILY("c.instance_type")} = lower($7::text))
  SELECT ((extract(epoch FROM (date_trunc('hour', l.charge_period_start) + k.k * interval '1 hour') - $2::timestamptz) / 3600)::int)::text AS hour,
         sum(round(l.effective_cost / ${LINE_HOURS}, 10))::text AS cost
    FROM r JOIN spend_lines l ON l.organization_id = $1 AND l.resource_id = r.resource_id AND l.tenant_id = r.tenant_id
      AND l.charge_period_start >= $2::timestamptz - interval '${MAX_SPREAD_HOURS + 1} hours' AND l.charge_period_start < $3::timestamptz
    CROSS JOIN LATERAL generate_series(0, ${LINE_HOURS} - 1) AS k(k)
   WHERE ${ONDEMAND_LINE} AND l.currency = '${CURRENCY}' AND lower(l.provider) = lower($4::text)
     AND ($5::text = '' OR l.service_category = $5::text) AND ($6::text = '' OR l.region = $6::text)
     AND date_trunc('hour', l.charge_period_start) + k.k * interval '1 hour' >= $2::timestamptz
     AND date_trunc('hour', l.charge_period_start) + k.k * interval '1 hour' < $3::timestamptz
   GROUP BY 1`;

/** One family's hourly series over [start, end): hours since the start and their costs, hours without cost absent. */
export async function findFamilySeries(
  sql: SqlClient,
  organizationId: string,
  start: Date,
  end: Date,
  scope: SeriesScope,
  family: string,
): Promise<{ hours: string[]; costs: string[] }> {
  const rows = await sql.query<FamilySeriesRow>(FAMILY_SERIES_SQL, [
    organizationId,
    start.toISOString(),
    end.toISOString(),
    scope.provider,
    scope.serviceCategory,
    scope.region,
    family,
  ]);
  return { hours: rows.map((row) => row.hour), costs: rows.map((row) => row.cost) };
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "commitment utilization", sql: UTILIZATION_SQL, columns: UTILIZATION_COLUMNS },
    { name: "commitment coverage", sql: COVERAGE_SQL, columns: COVERAGE_COLUMNS },
    { name: "commitment last on-demand hour per provider", sql: LAST_HOURS_SQL, columns: LAST_HOURS_COLUMNS },
    { name: "commitment on-demand series", sql: SERIES_SQL, columns: SERIES_COLUMNS },
    { name: "commitment family on-demand series", sql: FAMILY_SERIES_SQL, columns: FAMILY_SERIES_COLUMNS },
  ];
}

/** What the commitment service reads; each function takes the driver's client it runs on. */
export const commitmentRepository = { findUtilization, findCoverage, findLastOnDemandHours, findOnDemandSeries, findFamilySeries };
export type CommitmentRepository = typeof commitmentRepository;
