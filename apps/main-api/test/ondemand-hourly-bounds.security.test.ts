// The hourly on-demand roll-up (spend_ondemand_hourly, read by the commitment purchase
// recommendation) spreads a Standard Usage line over the hours of its charge period only when that
// period is at most 31 days (744 hours): one bill line of 2000-2030 wrote 262,992 hourly rows (9.1 s
// on PostgreSQL) and one of 0001-9999 would write ~87.6 M. A longer line stays in the ledger and in
// every other roll-up; its insert, supersede, re-allocation and delete leave the hourly roll-up equal
// to the lines it holds.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";
import { rollupsMatchLines } from "./helpers/rollup";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const base = (org: SignedUp) => `/api/v1/organizations/${org.organization.id}/spend`;
const upload = (org: SignedUp, body: string) =>
  request(ctx.app)
    .post(`${base(org)}/imports`)
    .set("Authorization", `Bearer ${org.token}`)
    .set("Content-Type", "text/csv")
    .send(Buffer.from(body));
const removeImport = (org: SignedUp, id: string) =>
  request(ctx.app)
    .delete(`${base(org)}/imports/${id}`)
    .set("Authorization", `Bearer ${org.token}`);
const count = async (org: SignedUp, table: string) =>
  (await ctx.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [org.organization.id]))[0].n;
const hourlyRows = (org: SignedUp) => count(org, "spend_ondemand_hourly");

/**
 * One on-demand Usage line over [start, end), its costs `cost`: compute hours charged by use, as a
 * bill states them (usage a commitment could cover, the only usage the hourly roll-up holds).
 */
const usage = (start: string, end: string, cost = "744", extra: Record<string, string> = {}) => ({
  ChargePeriodStart: start,
  ChargePeriodEnd: end,
  BilledCost: cost,
  EffectiveCost: cost,
  ListCost: cost,
  ContractedCost: cost,
  PricingCategory: "Standard",
  ChargeFrequency: "Usage-Based",
  ...extra,
});
const csv = (rows: Array<Record<string, string>>) => focusCsvText(rows, ["PricingCategory", "ChargeFrequency"]);

describe("lines longer than 31 days are not spread over hours", () => {
  test("a 2000-01-01 to 2030-01-01 line imports quickly and writes no hourly row (was 262,992); it stays in the ledger and the daily roll-ups", async () => {
    const org = await signUp(ctx, { company: "Thirty years" });
    const file = csv([usage("2000-01-01T00:00:00Z", "2030-01-01T00:00:00Z", "1000")]);
    expect(file.length).toBeLessThan(600);
    const started = Date.now();
    const res = await upload(org, file);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(201);
    expect(await hourlyRows(org)).toBe(0);
    expect(elapsed).toBeLessThan(5_000);
    expect(await count(org, "spend_lines")).toBe(1);
    expect(await count(org, "spend_coverage_daily")).toBe(1);
    expect(await count(org, "spend_daily")).toBe(1);
    await rollupsMatchLines(ctx, org.organization.id);
    await removeImport(org, res.body.data.import.id).expect(204);
    expect(await count(org, "spend_lines")).toBe(0);
    expect(await rollupsMatchLines(ctx, org.organization.id)).toEqual({ rows: 0, serviceRows: 0, tagRows: 0, commitmentRows: 0, hourlyRows: 0 });
  }, 300_000);

  test("a 31-day line (744 hours) is still spread over its 744 hours and its delete removes them; one second longer is not spread", async () => {
    const org = await signUp(ctx, { company: "Thirty-one days" });
    const month = await upload(org, csv([usage("2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", "744")])).expect(201);
    expect(await hourlyRows(org)).toBe(744);
    const [sums] = await ctx.db.sql.query<{ cost: string; lines: number }>(
      "SELECT sum(effective_cost)::numeric(38, 10)::text AS cost, min(line_count)::int AS lines FROM spend_ondemand_hourly WHERE organization_id = $1",
      [org.organization.id],
    );
    expect(sums).toEqual({ cost: "744.0000000000", lines: 1 });
    await rollupsMatchLines(ctx, org.organization.id);
    await removeImport(org, month.body.data.import.id).expect(204);
    expect(await hourlyRows(org)).toBe(0);

    const longer = await upload(org, csv([usage("2026-10-01T00:00:00Z", "2026-11-01T00:00:01Z", "745")])).expect(201);
    expect(await hourlyRows(org)).toBe(0);
    await rollupsMatchLines(ctx, org.organization.id);
    await removeImport(org, longer.body.data.import.id).expect(204);
    expect(await rollupsMatchLines(ctx, org.organization.id)).toEqual({ rows: 0, serviceRows: 0, tagRows: 0, commitmentRows: 0, hourlyRows: 0 });
  }, 300_000);

  test("the roll-ups equal the lines after import, supersede, re-allocation and delete of long, 31-day and daily lines", async () => {
    const org = await signUp(ctx, { company: "Mixed periods" });
    const lines = (cost: string) => [
      usage("2024-01-01T00:00:00Z", "2026-01-01T00:00:00Z", cost),
      usage("2026-10-01T00:30:00Z", "2026-10-31T23:00:00Z", cost, { ServiceName: "Disks" }),
      usage("2026-10-05T00:00:00Z", "2026-10-06T00:00:00Z", cost, { ServiceName: "Nets", RegionId: "eu-west-1" }),
      { ...usage("2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", cost), PricingCategory: "Committed" },
    ];
    const first = await upload(org, csv(lines("10"))).expect(201);
    // 31 days less 1.5 hours from 00:30 (743 hours) and one day (24 hours); the 2-year line none.
    expect(await hourlyRows(org)).toBe(743 + 24);
    await rollupsMatchLines(ctx, org.organization.id);

    // Same billing account and period: supersedes the first import (its lines subtracted, sign -1).
    const second = await upload(org, csv(lines("20"))).expect(201);
    expect(second.body.data.import.superseded_import_ids).toEqual([first.body.data.import.id]);
    expect(await count(org, "spend_lines")).toBe(4);
    expect(await hourlyRows(org)).toBe(743 + 24);
    await rollupsMatchLines(ctx, org.organization.id);

    // Re-allocation moves every line (subtracted, then added again).
    const put = await request(ctx.app)
      .put(`${base(org)}/allocation-rules`)
      .set("Authorization", `Bearer ${org.token}`)
      .send({ rules: [{ tenant_id: org.tenant.id }] })
      .expect(200);
    expect(put.body.data.reallocated_lines).toBe(4);
    expect(await hourlyRows(org)).toBe(743 + 24);
    await rollupsMatchLines(ctx, org.organization.id);

    await removeImport(org, second.body.data.import.id).expect(204);
    expect(await rollupsMatchLines(ctx, org.organization.id)).toEqual({ rows: 0, serviceRows: 0, tagRows: 0, commitmentRows: 0, hourlyRows: 0 });
  }, 300_000);
});
