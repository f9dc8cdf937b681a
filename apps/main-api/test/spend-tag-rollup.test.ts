// Tag filters and groupings beside other dimensions (docs/api.md, "Spend: usage, queries, lines,
// export"): answered from the tag roll-ups, equal to the same sums computed from the lines.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";
import { rollupsMatchLines } from "./helpers/rollup";

let ctx: TestContext;
let org: SignedUp;

const SERVICES = [
  ["Amazon Elastic Compute Cloud", "Compute"],
  ["Amazon Simple Storage Service", "Storage"],
  ["AWS Lambda", "Compute"],
];
const TEAMS = ["search", "ads", null];

/** Ten days of three services, tagged by three teams (one untagged), one line with 20 decimal places; 4 lines a day per service. */
function bill(): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  for (let day = 1; day <= 10; day++) {
    const date = `2026-10-${String(day).padStart(2, "0")}`;
    SERVICES.forEach(([service, category], s) => {
      for (let i = 0; i < 4; i++) {
        const team = TEAMS[(day + s + i) % 3];
        const amount = `${day}.${s}${i}${day === 3 && s === 0 && i === 0 ? "00000000000000000007" : "25"}`;
        rows.push({
          ChargePeriodStart: `${date}T${String(i * 6).padStart(2, "0")}:00:00Z`,
          ChargePeriodEnd: `${date}T${String(i * 6 + 1).padStart(2, "0")}:00:00Z`,
          ServiceName: service,
          ServiceCategory: category,
          ChargeCategory: i === 3 ? "Tax" : "Usage",
          BilledCost: amount,
          EffectiveCost: amount,
          ListCost: amount,
          ContractedCost: amount,
          Tags: JSON.stringify(team === null ? { env: "prod" } : { team, env: i % 2 ? "dev" : "prod" }),
        });
      }
    });
  }
  return rows;
}

beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx, { company: "Tags beside" });
  await request(ctx.app)
    .put(`/api/v1/organizations/${org.organization.id}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({ rules: [{ tenant_id: org.tenant.id }] })
    .expect(200);
  const res = await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/spend/imports`)
    .set("Authorization", `Bearer ${org.token}`)
    .set("Content-Type", "text/csv")
    .send(focusCsvText(bill(), ["Tags"]));
  expect(res.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const spend = async (query: string) =>
  (
    await request(ctx.app)
      .get(`/api/v1/tenant/spend?start=2026-10-01&end=2026-10-11&${query}`)
      .set("Authorization", `Bearer ${org.token}`)
      .set("X-Service-Tenant-ID", org.tenant.id)
      .expect(200)
  ).body.data;

/** The same report computed from the lines: [day, group values..., cost rounded to 10 places]. */
async function fromLines(groups: string[], where: string, params: unknown[]): Promise<string[][]> {
  const rows = await ctx.db.sql.query<{ day: string; g: string[]; cost: string }>(
    `SELECT (charge_period_start AT TIME ZONE 'UTC')::date::text AS day, ARRAY[${groups.join(", ") || "''"}] AS g,
        trim_scale(round(sum(billed_cost), 10))::text AS cost
       FROM spend_lines WHERE organization_id = $1 AND ${where} GROUP BY 1, 2`,
    [org.organization.id, ...params],
  );
  return rows.map((row) => [row.day, ...row.g.slice(0, groups.length), row.cost]).sort();
}
const fromReport = (data: { rows: { period_start: string; group: Record<string, string | null>; cost: string }[] }, names: string[]) =>
  data.rows.map((row) => [row.period_start.slice(0, 10), ...names.map((name) => row.group[name] ?? ""), row.cost]).sort();

describe("tags beside other dimensions, from the roll-ups", () => {
  test("the roll-ups match the lines", async () => {
    const counts = await rollupsMatchLines(ctx, org.organization.id);
    expect(counts.tagRows).toBeGreaterThan(0);
  });

  test("by day and service_name, filtered by one tag value: equal to the lines", async () => {
    const data = await spend("granularity=day&group_by=service_name&tag:team=search");
    const expected = await fromLines(["coalesce(service_name, '')"], "tags ->> 'team' = $2", ["search"]);
    expect(fromReport(data, ["service_name"])).toEqual(expected);
    expect(expected.length).toBeGreaterThan(10);
  });

  test("filtered by a tag and a service category, grouped by charge_category: equal to the lines", async () => {
    const data = await spend("granularity=day&group_by=charge_category&tag:env=prod&service_category=Compute");
    const expected = await fromLines(["charge_category"], "tags ->> 'env' = $2 AND service_category = $3", ["prod", "Compute"]);
    expect(fromReport(data, ["charge_category"])).toEqual(expected);
  });

  test("grouped by a tag and a service: the lines without the tag are the null group", async () => {
    const data = await spend("granularity=day&group_by=tag:team,service_name");
    const expected = await fromLines(["coalesce(tags ->> 'team', '')", "coalesce(service_name, '')"], "true", []);
    expect(fromReport(data, ["tag:team", "service_name"])).toEqual(expected);
  });

  test("grouped by a tag, filtered by a provider and a tag value: equal to the lines", async () => {
    const data = await spend("granularity=none&group_by=tag:team&provider=Cloud&tag:team=ads,search");
    const [row] = await ctx.db.sql.query<{ cost: string }>(
      "SELECT trim_scale(round(sum(billed_cost), 10))::text AS cost FROM spend_lines WHERE organization_id = $1 AND tags ->> 'team' IN ('ads', 'search') AND provider = 'Cloud'",
      [org.organization.id],
    );
    expect(data.totals).toEqual([{ currency: "USD", cost: row.cost }]);
  });

  test("whole days are read from the roll-up: lines removed behind its back do not change the answer", async () => {
    const before = await spend("granularity=day&group_by=service_name&tag:team=search");
    // Only a test may do this: the lines go, the roll-ups stay as they were.
    await ctx.db.sql.query("DELETE FROM spend_lines WHERE organization_id = $1 AND tags ->> 'team' = 'search'", [org.organization.id]);
    const after = await spend("granularity=day&group_by=service_name&tag:team=search");
    expect(after.rows).toEqual(before.rows);
    expect(after.rows.length).toBeGreaterThan(0);
  });
});
