import { COMMITMENT_ROLLUP_DIMENSIONS, COVERAGE_ROLLUP_DIMENSIONS, ONDEMAND_ROLLUP_DIMENSIONS } from "../../src/spend/commitment-rollups-repository";
import { TAG_SERVICE_DIMENSIONS } from "../../src/spend/lines-repository";
import { ROLLUP_DIMENSIONS, SERVICE_ROLLUP_DIMENSIONS } from "../../src/spend/rollup-columns";
import type { TestContext } from "./context";

/** The spend roll-ups sum exactly (any scale): both sides are compared without trailing zeros. */
const SUMS = `trim_scale(coalesce(sum(billed_cost), 0))::text AS billed_cost, trim_scale(coalesce(sum(effective_cost), 0))::text AS effective_cost,
    trim_scale(coalesce(sum(list_cost), 0))::text AS list_cost, trim_scale(coalesce(sum(contracted_cost), 0))::text AS contracted_cost,
    count(*)::int AS line_count`;

/** The spend roll-ups as they are, and as they would be rebuilt from the lines: always equal. */
export async function rollupsMatchLines(
  ctx: TestContext,
  org: string,
): Promise<{ rows: number; serviceRows: number; tagRows: number; commitmentRows: number; hourlyRows: number }> {
  const compare = async (table: string, dimensions: readonly string[], lines = "spend_lines") => {
    const order = `${dimensions.map((_, i) => i + 3).join(", ")}, 1, 2`;
    const stored = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT tenant_id, day::text, ${dimensions.join(", ")}, trim_scale(billed_cost)::text AS billed_cost, trim_scale(effective_cost)::text AS effective_cost,
          trim_scale(list_cost)::text AS list_cost, trim_scale(contracted_cost)::text AS contracted_cost, line_count::int
         FROM ${table} WHERE organization_id = $1 ORDER BY ${order}`,
      [org],
    );
    const rebuilt = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT coalesce(tenant_id, '') AS tenant_id, (charge_period_start AT TIME ZONE 'UTC')::date::text AS day,
          ${dimensions.map((name) => `coalesce(${name}, '') AS ${name}`).join(", ")}, ${SUMS}
         FROM ${lines} WHERE organization_id = $1 GROUP BY ${order} ORDER BY ${order}`,
      [org],
    );
    expect(stored).toEqual(rebuilt);
    return stored.length;
  };
  const rows = await compare("spend_daily", ROLLUP_DIMENSIONS);
  const serviceRows = await compare("spend_service_daily", SERVICE_ROLLUP_DIMENSIONS);
  const tagRows = await compare(
    "spend_tag_daily",
    ["currency", "unpriced_reason", "tag_key", "tag_value"],
    "(SELECT l.*, t.key AS tag_key, t.value AS tag_value FROM spend_lines l CROSS JOIN LATERAL jsonb_each_text(l.tags) AS t(key, value) WHERE t.value IS NOT NULL) AS tagged",
  );
  await compare(
    "spend_tag_service_daily",
    TAG_SERVICE_DIMENSIONS,
    "(SELECT l.*, t.key AS tag_key, t.value AS tag_value FROM spend_lines l CROSS JOIN LATERAL jsonb_each_text(l.tags) AS t(key, value) WHERE t.value IS NOT NULL) AS tagged",
  );
  const { commitmentRows, hourlyRows } = await commitmentRollupsMatchLines(ctx, org);
  return { rows, serviceRows, tagRows, commitmentRows, hourlyRows };
}

/** A line's hours from its first UTC hour (at least one); each hour holds its share rounded to 10 places. */
const HOURS = "greatest(1, ceil(extract(epoch FROM (charge_period_end - date_trunc('hour', charge_period_start))) / 3600))::int";

/**
 * Usage a commitment could cover, written out here independently of the source (docs/commitments.md):
 * Usage, Usage-Based, Compute, Standard or Committed, a pricing or consumed unit in hours.
 */
const ELIGIBLE = `charge_category = 'Usage' AND charge_frequency = 'Usage-Based' AND service_category = 'Compute'
  AND pricing_category IN ('Standard', 'Committed')
  AND (pricing_unit ILIKE '%hour%' OR pricing_unit ILIKE '%hr%' OR consumed_unit ILIKE '%hour%' OR consumed_unit ILIKE '%hr%')`;

/**
 * The commitment roll-ups as they are, and as rebuilt from the lines (a commitment's Usage lines by
 * day; eligible usage by day and month; eligible Standard usage of at most 31 days spread over its hours).
 */
export async function commitmentRollupsMatchLines(ctx: Pick<TestContext, "db">, org: string): Promise<{ commitmentRows: number; hourlyRows: number }> {
  const compareDaily = async (table: string, dimensions: readonly string[], where: string, grain = "(charge_period_start AT TIME ZONE 'UTC')::date") => {
    const order = `day, ${dimensions.map((_, i) => i + 2).join(", ")}`;
    const stored = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT day::text AS day, ${dimensions.join(", ")}, effective_cost::text, list_cost::text, on_demand_equivalent::text, line_count::int FROM ${table} WHERE organization_id = $1 ORDER BY ${order}`,
      [org],
    );
    const rebuilt = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT (${grain})::text AS day, ${dimensions.map((name) => `coalesce(${name}, '') AS ${name}`).join(", ")},
          coalesce(sum(effective_cost), 0)::numeric(38, 10)::text AS effective_cost, coalesce(sum(list_cost), 0)::numeric(38, 10)::text AS list_cost,
          sum(CASE WHEN contracted_cost IS NOT NULL THEN contracted_cost WHEN list_cost IS NOT NULL THEN list_cost ELSE 0 END)::numeric(38, 10)::text AS on_demand_equivalent,
          count(*)::int AS line_count
         FROM spend_lines WHERE organization_id = $1 AND ${where} GROUP BY ${order} ORDER BY ${order}`,
      [org],
    );
    expect(stored).toEqual(rebuilt);
    return stored.length;
  };
  const commitmentRows = await compareDaily(
    "spend_commitment_daily",
    COMMITMENT_ROLLUP_DIMENSIONS,
    "charge_category = 'Usage' AND commitment_discount_id IS NOT NULL",
  );
  await compareDaily("spend_coverage_daily", COVERAGE_ROLLUP_DIMENSIONS, ELIGIBLE);
  await compareDaily("spend_coverage_monthly", COVERAGE_ROLLUP_DIMENSIONS, ELIGIBLE, "date_trunc('month', charge_period_start AT TIME ZONE 'UTC')::date");
  const hourOrder = `hour, ${ONDEMAND_ROLLUP_DIMENSIONS.map((_, i) => i + 2).join(", ")}`;
  const storedHours = await ctx.db.sql.query<Record<string, unknown>>(
    `SELECT hour, ${ONDEMAND_ROLLUP_DIMENSIONS.join(", ")}, effective_cost::text, list_cost::text, line_count::int FROM spend_ondemand_hourly WHERE organization_id = $1 ORDER BY ${hourOrder}`,
    [org],
  );
  const rebuiltHours = await ctx.db.sql.query<Record<string, unknown>>(
    `SELECT date_trunc('hour', charge_period_start) + k * interval '1 hour' AS hour, ${ONDEMAND_ROLLUP_DIMENSIONS.map((name) => `coalesce(${name}, '') AS ${name}`).join(", ")},
        coalesce(sum(round(effective_cost / ${HOURS}, 10)), 0)::numeric(38, 10)::text AS effective_cost,
        coalesce(sum(round(list_cost / ${HOURS}, 10)), 0)::numeric(38, 10)::text AS list_cost, count(*)::int AS line_count
       FROM spend_lines CROSS JOIN LATERAL generate_series(0, ${HOURS} - 1) AS k
      WHERE organization_id = $1 AND ${ELIGIBLE} AND pricing_category = 'Standard'
        AND charge_period_end - charge_period_start <= interval '744 hours'
      GROUP BY ${hourOrder} ORDER BY ${hourOrder}`,
    [org],
  );
  expect(storedHours).toEqual(rebuiltHours);
  return { commitmentRows, hourlyRows: storedHours.length };
}
