/**
 * The four roll-ups commitments read (src/commitments), maintained by lines-repository.ts in the same
 * statements as spend_daily: spend_commitment_daily (a commitment's Usage lines by day: a year of
 * utilization is a few rows per commitment and day), spend_coverage_daily and spend_coverage_monthly
 * (eligible usage, eligibleUsage, by day and by month for long ranges, by provider and the coverage
 * groups) and spend_ondemand_hourly (eligible Standard Usage lines of at most 31 days spread evenly over the hours
 * of their charge period, each hour's share rounded to 10 places so that the sums stay exact
 * whatever the batches).
 */

/** spend_commitment_daily's dimensions after the day (Usage lines with a commitment id), read from a line ('' for null). */
export const COMMITMENT_ROLLUP_DIMENSIONS = [
  "currency",
  "commitment_discount_id",
  "commitment_discount_category",
  "commitment_discount_type",
  "commitment_discount_status",
  "provider",
  "billing_account_id",
  "pricing_category",
] as const;

/** spend_coverage_daily's dimensions after the day (eligible usage: eligibleUsage). */
export const COVERAGE_ROLLUP_DIMENSIONS = [
  "tenant_id",
  "currency",
  "provider",
  "service_name",
  "service_category",
  "region",
  "sub_account_id",
  "pricing_category",
  "commitment_discount_status",
] as const;

/** spend_ondemand_hourly's dimensions after the hour. */
export const ONDEMAND_ROLLUP_DIMENSIONS = ["currency", "provider", "service_name", "service_category", "region"] as const;

/**
 * Usage a commitment could cover, over a line alias `l` (the one definition utilization, coverage
 * and the purchase recommendation read; whether a line is covered is coveredUsage's): a Usage line,
 * charged by use (`Usage-Based`), of category Compute, priced on demand or by a commitment (never
 * `Dynamic`: spot is not covered), measured in time (its pricing or consumed unit says hour or hr, in
 * any case). Storage, data transfer and requests billed under a compute service are left out, and
 * a commitment covers its own provider's lines only (the readers group or filter by provider).
 */
export const eligibleUsage = (l: string) =>
  `(${l}.charge_category = 'Usage' AND ${l}.charge_frequency = 'Usage-Based' AND ${l}.service_category = 'Compute' AND ${l}.pricing_category IN ('Standard', 'Committed')
    AND (lower(coalesce(${l}.pricing_unit, '')) LIKE '%hour%' OR lower(coalesce(${l}.pricing_unit, '')) LIKE '%hr%'
      OR lower(coalesce(${l}.consumed_unit, '')) LIKE '%hour%' OR lower(coalesce(${l}.consumed_unit, '')) LIKE '%hr%'))`;

/** A line's usage at on-demand rates: its contracted cost where the bill has one, else its list cost. */
export const onDemandEquivalent = (l: string) => `coalesce(${l}.contracted_cost, ${l}.list_cost, 0)`;

/**
 * The longest charge period the hourly roll-up spreads (31 days): a usage line spanning more says
 * nothing about hourly usage, and spreading it would write one row per hour of any period a bill
 * states (2000-2030 was 262,992 rows from one line, 0001-9999 would be ~87.6 M).
 */
export const MAX_SPREAD_HOURS = 744;

/**
 * The lines the hourly roll-up holds: eligible on-demand usage whose charge period is at most
 * MAX_SPREAD_HOURS long. The same condition adds and subtracts a line, so the roll-up always equals
 * the lines it holds.
 */
export const ONDEMAND_LINE = `${eligibleUsage("l")} AND l.pricing_category = 'Standard' AND l.charge_period_end - l.charge_period_start <= interval '${MAX_SPREAD_HOURS} hours'`;

/** A line's hours: from its charge period's first UTC hour, as many as its period spans (at least one; at most 745 for the lines ONDEMAND_LINE selects). */
export const LINE_HOURS = `greatest(1, ceil(extract(epoch FROM (l.charge_period_end - date_trunc('hour', l.charge_period_start))) / 3600))::int`;

/** A line's UTC day, and the first day of its UTC month (spend_coverage_monthly's `day`). */
const DAY_OF_LINE = "(l.charge_period_start AT TIME ZONE 'UTC')::date";
const MONTH_OF_LINE = "date_trunc('month', l.charge_period_start AT TIME ZONE 'UTC')::date";

const COMMITMENT_LIST = COMMITMENT_ROLLUP_DIMENSIONS.join(", ");
const COVERAGE_LIST = COVERAGE_ROLLUP_DIMENSIONS.join(", ");
const ONDEMAND_LIST = ONDEMAND_ROLLUP_DIMENSIONS.join(", ");
const upsertSums = (table: string, sums = ["effective_cost", "list_cost", "line_count"]) =>
  sums.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ");

/**
 * A condition that holds once the data-modifying CTE `cte` has run to its end: a statement's
 * roll-up upserts run one after another through it (each reads the count of the one before).
 * Written as an uncorrelated sub-select in WHERE, PostgreSQL evaluates it once, before the first
 * row (an InitPlan in a one-time filter), whatever its estimates. Joined as a one-row relation
 * instead (`FROM lines l, (SELECT count(*) FROM cte) AS after`), a plan made without statistics
 * (lines just inserted, every estimate 1 row) put the count inside a nested loop and read `cte`
 * again for every line: 6,000 lines x 144,000 hourly rows, ~2 minutes on PostgreSQL.
 */
export const afterCte = (cte: string) => `(SELECT count(*) FROM ${cte}) >= 0`;

/**
 * CTEs (to follow others in a WITH) adding `sign` times the lines of `source` to the four roll-ups,
 * each upsert in key order and after `after` (a CTE whose count it reads), so that concurrent
 * writers lock roll-up rows in one order. The last CTE is `rollup_ondemand`.
 */
export function commitmentRollupCtes(source: string, sign: 1 | -1, after: string): string {
  const daily = (
    name: string,
    table: string,
    dimensions: readonly string[],
    list: string,
    where: string,
    previous: string,
    grain = DAY_OF_LINE,
  ) => `${name} AS (
      INSERT INTO ${table} (organization_id, day, dims_key, ${list}, effective_cost, list_cost, on_demand_equivalent, line_count)
      SELECT organization_id, day, md5(jsonb_build_array(${list})::text), ${list}, effective_cost, list_cost, on_demand_equivalent, line_count
      FROM (
        SELECT l.organization_id, ${grain} AS day,
          ${dimensions.map((dimension) => `coalesce(l.${dimension}, '') AS ${dimension}`).join(", ")},
          ${sign} * coalesce(sum(l.effective_cost), 0) AS effective_cost, ${sign} * coalesce(sum(l.list_cost), 0) AS list_cost,
          ${sign} * sum(${onDemandEquivalent("l")}) AS on_demand_equivalent, ${sign} * count(*) AS line_count
        FROM ${source} l
        WHERE (${where}) AND ${afterCte(previous)}
        GROUP BY ${dimensions.map((_, i) => i + 3).join(", ")}, 1, 2
      ) c
      ORDER BY organization_id, day, 3
      ON CONFLICT (organization_id, day, dims_key) DO UPDATE SET ${upsertSums(table, ["effective_cost", "list_cost", "on_demand_equivalent", "line_count"])}
      RETURNING 1)`;
  return `${daily("rollup_commitments", "spend_commitment_daily", COMMITMENT_ROLLUP_DIMENSIONS, COMMITMENT_LIST, "l.charge_category = 'Usage' AND l.commitment_discount_id IS NOT NULL", after)},
    ${daily("rollup_coverage", "spend_coverage_daily", COVERAGE_ROLLUP_DIMENSIONS, COVERAGE_LIST, eligibleUsage("l"), "rollup_commitments")},
    ${daily("rollup_coverage_monthly", "spend_coverage_monthly", COVERAGE_ROLLUP_DIMENSIONS, COVERAGE_LIST, eligibleUsage("l"), "rollup_coverage", MONTH_OF_LINE)},
    rollup_ondemand AS (
      INSERT INTO spend_ondemand_hourly (organization_id, hour, dims_key, ${ONDEMAND_LIST}, effective_cost, list_cost, line_count)
      SELECT organization_id, hour, md5(jsonb_build_array(${ONDEMAND_LIST})::text), ${ONDEMAND_LIST}, effective_cost, list_cost, line_count
      FROM (
        SELECT l.organization_id, date_trunc('hour', l.charge_period_start) + k.k * interval '1 hour' AS hour,
          ${ONDEMAND_ROLLUP_DIMENSIONS.map((name) => `coalesce(l.${name}, '') AS ${name}`).join(", ")},
          ${sign} * coalesce(sum(round(l.effective_cost / ${LINE_HOURS}, 10)), 0) AS effective_cost,
          ${sign} * coalesce(sum(round(l.list_cost / ${LINE_HOURS}, 10)), 0) AS list_cost, ${sign} * count(*) AS line_count
        FROM ${source} l CROSS JOIN LATERAL generate_series(0, ${LINE_HOURS} - 1) AS k(k)
        WHERE (${ONDEMAND_LINE}) AND ${afterCte("rollup_coverage_monthly")}
        GROUP BY 1, 2, ${ONDEMAND_ROLLUP_DIMENSIONS.map((_, i) => i + 3).join(", ")}
      ) h
      ORDER BY organization_id, hour, 3
      ON CONFLICT (organization_id, hour, dims_key) DO UPDATE SET ${upsertSums("spend_ondemand_hourly")}
      RETURNING 1)`;
}

/** Removes the rows of the four roll-ups left without lines, from the first of these days on ($1 the organization, $2 the days). */
export const DROP_EMPTY_COMMITMENT_ROWS = [
  "DELETE FROM spend_commitment_daily WHERE organization_id = $1 AND day = ANY($2::date[]) AND line_count = 0",
  "DELETE FROM spend_coverage_daily WHERE organization_id = $1 AND day = ANY($2::date[]) AND line_count = 0",
  "DELETE FROM spend_coverage_monthly WHERE organization_id = $1 AND day IN (SELECT date_trunc('month', d)::date FROM unnest($2::date[]) AS d) AND line_count = 0",
  "DELETE FROM spend_ondemand_hourly WHERE organization_id = $1 AND hour >= (SELECT min(d) FROM unnest($2::date[]) AS d)::timestamp AT TIME ZONE 'UTC' AND line_count = 0",
];
