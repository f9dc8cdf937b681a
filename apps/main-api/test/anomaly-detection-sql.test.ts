// The detection runs in SQL over the roll-up; scoring.ts's pure functions (tested on hand-computed
// series in anomaly-scoring.test.ts) are its reference: on a ledger of many services with gaps,
// late starts, weekly patterns, spikes and near misses, costs with ten decimals, the stored anomalies
// are exactly the ones (and the values) the reference finds on the same dense series; one statement
// for several tenants of an organization finds each one's, and the daily schedule runs it.
import request from "supertest";
import Decimal from "decimal.js";
import { startAlertSchedule } from "../src/anomalies/schedule";
import { detectOrganizationAnomalies, detectTenantAnomalies } from "../src/anomalies/service";
import { type DayCost, detectAnomalies } from "../src/anomalies/scoring";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let tenant: { id: string; organizationId: string };
/** Two more tenants of the organization: the second one is never named to the detection. */
let second: string;
let unnamed: string;
const NOW = new Date("2026-11-20T08:00:00.000Z");
const TODAY = "2026-11-20";
const DAYS = 60; // detection over the 60 days before today, history from 74 days before
/** Per tenant and service, the cost of each day written to the ledger (days absent: no spend). */
const ledgers = new Map<string, Map<string, Map<string, Decimal>>>();

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await signUp(ctx, { company: "Detection Co" });
  tenant = { id: owner.tenant.id, organizationId: owner.organization.id };
  const more = async (name: string) => {
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${tenant.organizationId}/tenants`)
      .set("Authorization", `Bearer ${owner.token}`)
      .send({ name });
    return res.body.data.id as string;
  };
  second = await more("Second");
  unnamed = await more("Unnamed");
  const lines = [...seedLedger(tenant.id, 26), ...seedLedger(second, 7), ...seedLedger(unnamed, 8)];
  // Spend in another currency and today's partial day are not scored.
  lines.push(dayLine(tenant.id, addDays(TODAY, -5), "100000", { serviceName: "service-00", currency: "EUR" }));
  lines.push(dayLine(tenant.id, TODAY, "100000", { serviceName: "service-00" }));
  await seedSpend(ctx, tenant.organizationId, lines);
});
afterAll(async () => {
  await ctx?.close();
});

/** Twelve services of random daily costs over the history and the detected days, as ledger lines. */
function seedLedger(tenantId: string, seed: number) {
  const rand = random(seed);
  const lines = [];
  const ledger = new Map<string, Map<string, Decimal>>();
  ledgers.set(tenantId, ledger);
  for (let s = 0; s < 12; s++) {
    const service = `service-${String(s).padStart(2, "0")}`;
    const costs = new Map<string, Decimal>();
    const base = 5 + rand() * 300;
    const start = s % 4 === 3 ? 40 : 0; // some services start within the history
    for (let d = -DAYS - 14 + start; d < 0; d++) {
      const day = addDays(TODAY, d);
      const r = rand();
      if (s % 3 === 1 && r < 0.08) continue; // a gap: no spend that day
      const weekend = s % 2 === 0 && [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
      let cost = base * (weekend ? 0.3 : 1) * (0.9 + rand() * 0.2);
      if (r > 0.93) cost *= 1.25 + rand() * 3; // a spike, from a near miss to four times the usual
      if (s === 11) cost = 100; // flat: MAD 0
      if (s === 11 && d === -3) cost = 110.01; // 10.01 over a flat 100: under the 30 % floor
      if (s === 11 && d === -2) cost = 130.01; // over both floors
      const value = new Decimal(cost.toFixed(10));
      // Two lines on some days: the roll-up sums them.
      if (r < 0.3) {
        const part = value.mul("0.3").toDecimalPlaces(10);
        lines.push(dayLine(tenantId, day, part.toString(), { serviceName: service }));
        lines.push(dayLine(tenantId, day, value.minus(part).toString(), { serviceName: service, region: "eu-west-1" }));
      } else lines.push(dayLine(tenantId, day, value.toString(), { serviceName: service }));
      costs.set(day, value);
    }
    ledger.set(service, costs);
  }
  return lines;
}

const exact = (value: Decimal.Value, places: number) => new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places);

/** What scoring.ts finds: each service's dense series from its first day to yesterday. */
function reference(tenantId: string) {
  const ledger = ledgers.get(tenantId) ?? new Map();
  const from = addDays(TODAY, -DAYS);
  const found: string[][] = [];
  for (const [service, costs] of [...ledger].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const days = [...costs.keys()].sort();
    const series: DayCost[] = [];
    for (let day = days[0]; day < TODAY; day = addDays(day, 1)) series.push({ day, cost: costs.get(day) ?? "0" });
    for (const a of detectAnomalies(series, { minUsd: 10, minPercent: 30 }))
      if (a.day >= from) found.push([service, a.day, exact(a.cost, 10), exact(a.expected, 10), exact(a.impact, 10), exact(a.score, 4)]);
  }
  return found;
}

test("the anomalies stored are exactly those scoring.ts finds, with the same cost, expected, impact and score", async () => {
  const expected = reference(tenant.id);
  // The data set exercises the decision: anomalies in several services, and near misses around them.
  expect(expected.length).toBeGreaterThan(5);
  expect(new Set(expected.map(([service]) => service)).size).toBeGreaterThan(3);
  expect(expected.filter(([service]) => service === "service-11").map(([, day]) => day)).toEqual([addDays(TODAY, -2)]);

  const result = await detectTenantAnomalies(ctx.prisma, tenant, { days: DAYS }, NOW);
  expect(result.detected).toBe(expected.length);
  const rows = await ctx.prisma.spendAnomaly.findMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id } });
  const stored = rows
    .map((r) => [r.serviceName, r.day.toISOString().slice(0, 10), r.cost.toFixed(10), r.expected.toFixed(10), r.impact.toFixed(10), r.score.toFixed(4)])
    .sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
  expect(stored).toEqual(expected);
  // The answer lists them by service and day, in cents.
  expect(result.anomalies.map((a) => [a.service_name, a.day, a.cost, a.expected, a.impact, a.score])).toEqual(
    expected.map(([service, day, cost, exp, impact, score]) => [service, day, exact(cost, 2), exact(exp, 2), exact(impact, 2), exact(score, 2)]),
  );
  // Detecting again adds nothing.
  expect((await detectTenantAnomalies(ctx.prisma, tenant, { days: DAYS }, NOW)).detected).toBe(0);
});

test("one statement for several tenants of the organization finds each one's anomalies, and only theirs", async () => {
  // The first tenant's are stored already: only the second one's are new; the unnamed tenant is not read.
  const result = await detectOrganizationAnomalies(ctx.prisma, tenant.organizationId, [tenant.id, second], { days: DAYS }, NOW);
  const expected = reference(second);
  expect(expected.length).toBeGreaterThan(5);
  expect(result.anomalies.map((a) => [a.tenant_id, a.service_name, a.day, a.score])).toEqual(
    expected.map(([service, day, , , , score]) => [second, service, day, exact(score, 2)]),
  );
  const rows = await ctx.prisma.spendAnomaly.findMany({
    where: { organizationId: tenant.organizationId, tenantId: second },
    orderBy: [{ serviceName: "asc" }, { day: "asc" }],
  });
  expect(
    rows.map((r) => [r.serviceName, r.day.toISOString().slice(0, 10), r.cost.toFixed(10), r.expected.toFixed(10), r.impact.toFixed(10), r.score.toFixed(4)]),
  ).toEqual(expected);
  expect(await ctx.prisma.spendAnomaly.count({ where: { organizationId: tenant.organizationId, tenantId: unnamed } })).toBe(0);
  const events = await ctx.prisma.webhookEvent.findMany({ where: { organizationId: tenant.organizationId, type: "anomaly.detected" } });
  expect(events.filter((e) => (e.data as { tenant_id: string }).tenant_id === second)).toHaveLength(expected.length);
});

test("the daily schedule detects, per organization, the tenants with spend in the last two days", async () => {
  // Two organizations, two tenants in one: flat 100 a day for 20 days, then a spike yesterday (UTC).
  const today = new Date().toISOString().slice(0, 10);
  const spiked: { organizationId: string; tenantId: string }[] = [];
  for (const company of ["Schedule One", "Schedule Two"]) {
    const owner = await signUp(ctx, { company });
    const tenants = [owner.tenant.id];
    if (company === "Schedule One") {
      const res = await request(ctx.app)
        .post(`/api/v1/organizations/${owner.organization.id}/tenants`)
        .set("Authorization", `Bearer ${owner.token}`)
        .send({ name: "B" });
      tenants.push(res.body.data.id);
    }
    for (const tenantId of tenants) {
      const lines = Array.from({ length: 20 }, (_, i) => dayLine(tenantId, addDays(today, -20 + i), i === 19 ? "500" : "100"));
      await seedSpend(ctx, owner.organization.id, lines);
      spiked.push({ organizationId: owner.organization.id, tenantId });
    }
  }
  const schedule = startAlertSchedule({ prisma: ctx.prisma, logger: ctx.deps.logger, outbox: ctx.outbox }, 60);
  // Its first check starts at once; stop() waits for it.
  await schedule.stop();
  for (const { organizationId, tenantId } of spiked) {
    const rows = await ctx.prisma.spendAnomaly.findMany({ where: { organizationId, tenantId } });
    expect(rows.map((r) => [r.day.toISOString().slice(0, 10), r.cost.toFixed(2), r.expected.toFixed(2)])).toEqual([[addDays(today, -1), "500.00", "100.00"]]);
  }
});
