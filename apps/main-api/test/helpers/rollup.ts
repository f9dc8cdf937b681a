import type { TestContext } from "./context";

/** Both roll-ups as they are, and as they would be rebuilt from the lines: always equal. */
export async function rollupsMatchLines(ctx: TestContext, org: string): Promise<{ rows: number; serviceRows: number }> {
  const compare = async (table: string, dimensions: string[]) => {
    const stored = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT tenant_id, day::text, ${dimensions.join(", ")}, billed_cost::text, effective_cost::text, list_cost::text, line_count::int
         FROM ${table} WHERE organization_id = $1 ORDER BY ${dimensions.map((_, i) => i + 3).join(", ")}, 1, 2`,
      [org],
    );
    const rebuilt = await ctx.db.sql.query<Record<string, unknown>>(
      `SELECT coalesce(tenant_id, '') AS tenant_id, (charge_period_start AT TIME ZONE 'UTC')::date::text AS day,
          ${dimensions.map((name) => `coalesce(${name}, '') AS ${name}`).join(", ")},
          coalesce(sum(billed_cost), 0)::numeric(38, 10)::text AS billed_cost, coalesce(sum(effective_cost), 0)::numeric(38, 10)::text AS effective_cost,
          coalesce(sum(list_cost), 0)::numeric(38, 10)::text AS list_cost, count(*)::int AS line_count
         FROM spend_lines WHERE organization_id = $1 GROUP BY ${dimensions.map((_, i) => i + 3).join(", ")}, 1, 2
         ORDER BY ${dimensions.map((_, i) => i + 3).join(", ")}, 1, 2`,
      [org],
    );
    expect(stored).toEqual(rebuilt);
    return stored.length;
  };
  const rows = await compare("spend_daily", [
    "currency",
    "source",
    "charge_category",
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
    "provider",
    "service_name",
    "service_category",
    "unpriced_reason",
  ]);
  return { rows, serviceRows };
}
