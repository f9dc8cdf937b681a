import type { TestContext } from "./context";

const SUMS = `coalesce(sum(billed_cost), 0)::numeric(38, 10)::text AS billed_cost, coalesce(sum(effective_cost), 0)::numeric(38, 10)::text AS effective_cost,
    coalesce(sum(list_cost), 0)::numeric(38, 10)::text AS list_cost, coalesce(sum(contracted_cost), 0)::numeric(38, 10)::text AS contracted_cost,
    count(*)::int AS line_count`;

/** The three roll-ups as they are, and as they would be rebuilt from the lines: always equal. */
export async function rollupsMatchLines(ctx: TestContext, org: string): Promise<{ rows: number; serviceRows: number; tagRows: number }> {
  const compare = async (table: string, dimensions: string[], lines = "spend_lines") => {
    const order = `${dimensions.map((_, i) => i + 3).join(", ")}, 1, 2`;
    const stored = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT tenant_id, day::text, ${dimensions.join(", ")}, billed_cost::text, effective_cost::text, list_cost::text, contracted_cost::text, line_count::int
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
  const rows = await compare("spend_daily", [
    "currency",
    "source",
    "charge_category",
    "charge_frequency",
    "pricing_category",
    "provider",
    "service_name",
    "service_category",
    "region",
    "sub_account_id",
    "model",
    "unpriced_reason",
  ]);
  const serviceRows = await compare("spend_service_daily", [
    "currency",
    "source",
    "charge_category",
    "charge_frequency",
    "pricing_category",
    "provider",
    "service_name",
    "service_category",
    "unpriced_reason",
  ]);
  const tagRows = await compare(
    "spend_tag_daily",
    ["currency", "unpriced_reason", "tag_key", "tag_value"],
    "(SELECT l.*, t.key AS tag_key, t.value AS tag_value FROM spend_lines l CROSS JOIN LATERAL jsonb_each_text(l.tags) AS t(key, value) WHERE t.value IS NOT NULL) AS tagged",
  );
  return { rows, serviceRows, tagRows };
}
