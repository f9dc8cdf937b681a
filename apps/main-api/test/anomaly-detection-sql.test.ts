// The detection runs in SQL over the roll-up; scoring.ts's pure functions (tested on hand-computed
// series in anomaly-scoring.test.ts) are its reference: on a ledger of many services with gaps,
// late starts (new services), weekly patterns, spikes and near misses, costs with ten decimals, the
// anomalous days of every service and of the total are exactly the ones (and the values) the
// reference finds on the same dense series, and the stored anomalies are those days merged into
// ranges; one statement for several tenants of an organization finds each one's, and the daily
// schedule runs it.
import request from "supertest";
import { Decimal } from "@cloudcost/decimal";
import { startAlertSchedule } from "../src/anomalies/schedule";
import { anomalyServiceOver } from "../src/anomalies/service";
import { detectAnomalyRows } from "../src/anomalies/repository";
import { consecutiveRuns, type DayCost, detectAnomalies, HISTORY_DAYS, MAD_SCALE, MIN_SCALED_MAD, SCORE_THRESHOLD } from "../src/anomalies/scoring";
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

/** [kind, service ('' for the total), day, cost, expected, impact, score, reason] of a reference anomalous day (exact values). */
type RefDay = [string, string, string, string, string, string, string, string];

/**
 * What scoring.ts finds for the tenant's USD usage: each service's dense series from its first day to
 * yesterday, and the total's (the sum of the services, from the first day of any).
 */
function reference(tenantId: string): RefDay[] {
  const ledger = ledgers.get(tenantId) ?? new Map<string, Map<string, Decimal>>();
  const from = addDays(TODAY, -DAYS);
  const found: RefDay[] = [];
  const tenantFirst = [...ledger.values()].flatMap((costs) => [...costs.keys()]).sort()[0];
  const dense = (costs: Map<string, Decimal>, first: string) => {
    const series: DayCost[] = [];
    for (let day = first; day < TODAY; day = addDays(day, 1)) series.push({ day, cost: costs.get(day) ?? "0" });
    return series;
  };
  const add = (kind: "service" | "total", service: string, costs: Map<string, Decimal>) => {
    const series = dense(costs, [...costs.keys()].sort()[0]);
    for (const a of detectAnomalies(series, { minUsd: 10, minPercent: 30 }, { kind, tenantFirstDay: tenantFirst }))
      if (a.day >= from) found.push([kind, service, a.day, a.cost.toString(), a.expected.toString(), a.impact.toString(), a.score.toString(), a.reason]);
  };
  for (const [service, costs] of [...ledger].sort(([a], [b]) => (a < b ? -1 : 1))) add("service", service, costs);
  const total = new Map<string, Decimal>();
  for (const costs of ledger.values()) for (const [day, cost] of costs) total.set(day, (total.get(day) ?? new Decimal(0)).plus(cost));
  add("total", "", total);
  return found;
}

/** The reference days merged into anomalies: days of one monitor at most 2 normal days apart, sums and the highest score. */
function referenceRanges(days: RefDay[]) {
  const ranges: {
    kind: string;
    service: string;
    start: string;
    end: string;
    days: number;
    cost: string;
    expected: string;
    impact: string;
    score: string;
    reason: string;
  }[] = [];
  const byMonitor = new Map<string, RefDay[]>();
  for (const d of days) byMonitor.set(`${d[0]}|${d[1]}`, [...(byMonitor.get(`${d[0]}|${d[1]}`) ?? []), d]);
  for (const list of byMonitor.values())
    for (const run of consecutiveRuns(list.map((d) => ({ day: d[2], d })))) {
      const sum = (i: number) =>
        exact(
          run.reduce((acc, r) => acc.plus(r.d[i]), new Decimal(0)),
          10,
        );
      ranges.push({
        kind: run[0].d[0],
        service: run[0].d[1],
        start: run[0].day,
        end: run[run.length - 1].day,
        // From the first to the last anomalous day, the normal days between them included.
        days: Math.round((Date.parse(run[run.length - 1].day) - Date.parse(run[0].day)) / 86_400_000) + 1,
        cost: sum(3),
        expected: sum(4),
        impact: sum(5),
        score: exact(Decimal.max(...run.map((r) => r.d[6])), 4),
        reason: run[0].d[7],
      });
    }
  return ranges.sort((a, b) => (`${a.kind}|${a.service}|${a.start}` < `${b.kind}|${b.service}|${b.start}` ? -1 : 1));
}

const storedRanges = async (tenantId: string) =>
  (await ctx.prisma.spendAnomaly.findMany({ where: { organizationId: tenant.organizationId, tenantId } }))
    .map((r) => ({
      kind: r.monitorKind,
      service: r.serviceName,
      start: r.startDay.toISOString().slice(0, 10),
      end: r.endDay.toISOString().slice(0, 10),
      days: r.days,
      cost: r.cost.toFixed(10),
      expected: r.expected.toFixed(10),
      impact: r.impact.toFixed(10),
      score: r.score.toFixed(4),
      reason: r.reason,
    }))
    .sort((a, b) => (`${a.kind}|${a.service}|${a.start}` < `${b.kind}|${b.service}|${b.start}` ? -1 : 1));

test("the anomalous days the statement finds are exactly those scoring.ts finds, with the same cost, expected, impact, score and reason", async () => {
  const expected = reference(tenant.id);
  // The data set exercises the decision: anomalies in several services and the total, new services, and near misses around them.
  expect(expected.length).toBeGreaterThan(5);
  expect(new Set(expected.map(([, service]) => service)).size).toBeGreaterThan(3);
  expect(expected.some(([kind]) => kind === "total")).toBe(true);
  expect(expected.some(([, , , , , , , reason]) => reason === "new_service")).toBe(true);
  // service-11 (flat 100) starts 34 days ago, within the tenant's history: new for its first 14 days
  // (34 to 21 days ago, each 100 over the floors against 0); then its spike.
  expect(expected.filter(([kind, service]) => kind === "service" && service === "service-11").map(([, , day, , , , , reason]) => [day, reason])).toEqual([
    ...Array.from({ length: 14 }, (_, k) => [addDays(TODAY, -34 + k), "new_service"]),
    [addDays(TODAY, -2), "spike"],
  ]);
  const end = TODAY;
  const rows = await detectAnomalyRows(ctx.prisma, tenant.organizationId, [tenant.id], {
    historyFrom: addDays(TODAY, -DAYS - HISTORY_DAYS),
    end,
    from: addDays(TODAY, -DAYS),
    minUsd: "10",
    minPercent: "30",
    madScale: MAD_SCALE.toString(),
    minScaledMad: MIN_SCALED_MAD.toString(),
    scoreThreshold: SCORE_THRESHOLD,
  });
  // The EUR spend is its own monitors (one day: not scored); nothing else in another currency.
  expect(rows.every((r) => r.currency === "USD")).toBe(true);
  const key = (d: RefDay) => `${d[0] === "service" ? 0 : 1}|${d[1]}|${d[2]}`;
  expect(
    rows
      .map((r): RefDay => [r.monitor_kind, r.service_name, r.day, exact(r.cost, 10), exact(r.expected, 10), exact(r.impact, 10), exact(r.score, 4), r.reason])
      .sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  ).toEqual(
    expected
      .map(
        ([kind, service, day, cost, exp, impact, score, reason]): RefDay => [
          kind,
          service,
          day,
          exact(cost, 10),
          exact(exp, 10),
          exact(impact, 10),
          exact(score, 4),
          reason,
        ],
      )
      .sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  );
});

test("the anomalies stored are the reference's days merged into ranges per monitor, and detecting again adds nothing", async () => {
  const expected = referenceRanges(reference(tenant.id));
  expect(expected.some((r) => r.days > 1)).toBe(true);
  const result = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(tenant, { days: DAYS }, NOW);
  expect(result.detected).toBe(expected.length);
  expect(await storedRanges(tenant.id)).toEqual(expected);
  // The answer lists them in cents, the total's service as null.
  expect(result.anomalies.filter((a) => a.monitor.kind === "total").every((a) => a.service_name === null && a.monitor.service_name === null)).toBe(true);
  expect(result.anomalies.every((a) => a.day === a.start && a.currency === "USD" && /^\d+\.\d\d$/.test(a.cost))).toBe(true);
  expect(await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(tenant, { days: DAYS }, NOW)).toEqual({ detected: 0, extended: 0, anomalies: [] });
});

test("one statement for several tenants of the organization finds each one's anomalies, and only theirs", async () => {
  // The first tenant's are stored already: only the second one's are new; the unnamed tenant is not read.
  const result = await anomalyServiceOver(ctx.prisma).detectOrganizationAnomalies(tenant.organizationId, [tenant.id, second], { days: DAYS }, NOW);
  const expected = referenceRanges(reference(second));
  expect(expected.length).toBeGreaterThan(5);
  expect(result.anomalies.every((a) => a.tenant_id === second)).toBe(true);
  expect(result.detected).toBe(expected.length);
  expect(await storedRanges(second)).toEqual(expected);
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
    const rows = await ctx.prisma.spendAnomaly.findMany({ where: { organizationId, tenantId }, orderBy: { monitorKind: "asc" } });
    // The service's monitor and the total's.
    expect(rows.map((r) => [r.monitorKind, r.startDay.toISOString().slice(0, 10), r.days, r.cost.toFixed(2), r.expected.toFixed(2)])).toEqual([
      ["service", addDays(today, -1), 1, "500.00", "100.00"],
      ["total", addDays(today, -1), 1, "500.00", "100.00"],
    ]);
  }
});
