// The detection runs in SQL over the roll-up; scoring.ts's pure functions (tested on hand-computed
// series in anomaly-scoring.test.ts) are its reference: on a ledger of many services with gaps,
// late starts, weekly patterns, spikes and near misses, costs with ten decimals, the stored anomalies
// are exactly the ones (and the values) the reference finds on the same dense series.
import Decimal from "decimal.js";
import { detectTenantAnomalies } from "../src/anomalies/service";
import { type DayCost, detectAnomalies } from "../src/anomalies/scoring";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let tenant: { id: string; organizationId: string };
const NOW = new Date("2026-11-20T08:00:00.000Z");
const TODAY = "2026-11-20";
const DAYS = 60; // detection over the 60 days before today, history from 74 days before
/** Per service, the cost of each day written to the ledger (days absent: no spend). */
const ledger = new Map<string, Map<string, Decimal>>();

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
  const rand = random(26);
  const lines = [];
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
        lines.push(dayLine(tenant.id, day, part.toString(), { serviceName: service }));
        lines.push(dayLine(tenant.id, day, value.minus(part).toString(), { serviceName: service, region: "eu-west-1" }));
      } else lines.push(dayLine(tenant.id, day, value.toString(), { serviceName: service }));
      costs.set(day, value);
    }
    ledger.set(service, costs);
  }
  // Spend in another currency and today's partial day are not scored.
  lines.push(dayLine(tenant.id, addDays(TODAY, -5), "100000", { serviceName: "service-00", currency: "EUR" }));
  lines.push(dayLine(tenant.id, TODAY, "100000", { serviceName: "service-00" }));
  await seedSpend(ctx, tenant.organizationId, lines);
});
afterAll(async () => {
  await ctx?.close();
});

const exact = (value: Decimal.Value, places: number) => new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places);

/** What scoring.ts finds: each service's dense series from its first day to yesterday. */
function reference() {
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
  const expected = reference();
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
