// Spend anomalies v2 through the API, on spend written through the ledger: the weekday baseline,
// consecutive days merged into one anomaly (one anomaly.detected), new services, usage lines only
// (purchases and credits neither scored nor hiding a spike), feedback that mutes a monitor for 7
// days, re-detection after a late import, a tenant in EUR, the tenant's total monitor, and the
// migration of stored anomalies to the new shape.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, readMigrations } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import request from "supertest";
import { findAnomalies } from "../src/anomalies/repository";
import { anomalyServiceOver, redetectAfterImport, toAnomaly } from "../src/anomalies/service";
import { MIGRATIONS_DIR } from "../src/db";
import type { LedgerLineInput } from "../src/spend/lines-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { focusCsvText } from "./helpers/focus-files";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
const today = new Date().toISOString().slice(0, 10);
const day = (n: number) => addDays(today, n);
const weekday = (d: string) => new Date(`${d}T00:00:00.000Z`).getUTCDay();

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

interface Tenant {
  token: string;
  organizationId: string;
  id: string;
}

/** A new organization (its own floors) with one tenant, and its spend. */
async function tenantWith(company: string, lines: (tenantId: string) => LedgerLineInput[]): Promise<Tenant> {
  const owner = await signUp(ctx, { company });
  await seedSpend(ctx, owner.organization.id, lines(owner.tenant.id));
  return { token: owner.token, organizationId: owner.organization.id, id: owner.tenant.id };
}

const api = (t: Tenant, method: "get" | "post" | "patch", suffix: string) =>
  request(ctx.app)[method](`/api/v1/tenant/spend/anomalies${suffix}`).set("Authorization", `Bearer ${t.token}`).set("X-Service-Tenant-ID", t.id);
const detect = async (t: Tenant, days = 60) => {
  const res = await api(t, "post", "/detect").send({ days });
  expect(res.status).toBe(200);
  return res.body.data as { detected: number; extended: number; anomalies: Anomaly[] };
};
const list = async (t: Tenant) => {
  const res = await api(t, "get", `?start=${day(-90)}`);
  expect(res.status).toBe(200);
  return res.body.data.items as Anomaly[];
};
interface Anomaly {
  id: string;
  monitor: { kind: string; service_name: string | null };
  currency: string;
  start: string;
  end: string;
  days: number;
  day: string;
  service_name: string | null;
  cost: string;
  expected: string;
  impact: string;
  score: string;
  reason: string;
  feedback: string | null;
}
const ofService = (items: Anomaly[], service: string) => items.filter((a) => a.monitor.kind === "service" && a.monitor.service_name === service);
const ofTotal = (items: Anomaly[]) => items.filter((a) => a.monitor.kind === "total");
/** Days from `from` to `to` (inclusive, relative to today) of `cost` a day. */
const daily = (tenantId: string, from: number, to: number, cost: (d: string) => string | null, overrides: Partial<LedgerLineInput> = {}) =>
  Array.from({ length: to - from + 1 }, (_, i) => day(from + i))
    .map((d) => [d, cost(d)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== null)
    .map(([d, c]) => dayLine(tenantId, d, c, overrides));
const detectedEvents = async (t: Tenant) =>
  (await ctx.prisma.webhookEvent.findMany({ where: { organizationId: t.organizationId, type: "anomaly.detected" } })).filter(
    (e) => (e.data as { tenant_id: string }).tenant_id === t.id,
  );

test("a job every Sunday is expected once 4 weeks of history exist; the same job on a Wednesday is an anomaly", async () => {
  const sundays = Array.from({ length: 42 }, (_, i) => day(-42 + i)).filter((d) => weekday(d) === 0);
  const firstSunday = sundays[0];
  const wednesday = Array.from({ length: 7 }, (_, i) => day(-7 + i)).find((d) => weekday(d) === 3) as string;
  const t = await tenantWith("Weekly Co", (id) => [
    ...daily(id, -42, -1, () => "100"),
    ...daily(id, -42, -1, (d) => (weekday(d) === 0 || d === wednesday ? "500" : null), { serviceName: "Batch jobs" }),
  ]);
  await detect(t);
  const items = await list(t);
  const fourWeeksIn = addDays(firstSunday, 28);
  // After the 4th week no Sunday stands out, for the job's service or the total.
  expect(items.filter((a) => a.start >= fourWeeksIn && weekday(a.start) === 0)).toEqual([]);
  // Before, the 14-day median (no job most days) made the job's Sundays stand out: the rule without 28 days.
  expect(ofService(items, "Batch jobs").filter((a) => a.start < fourWeeksIn).length).toBeGreaterThan(0);
  // The Wednesday: against the 4 Wednesdays before (0 for the job, 100 in total).
  expect(items.filter((a) => a.start >= fourWeeksIn).map((a) => [a.monitor.kind, a.start, a.days, a.cost, a.expected, a.reason])).toEqual([
    ["service", wednesday, 1, "500.00", "0.00", "spike"],
    ["total", wednesday, 1, "600.00", "100.00", "spike"],
  ]);
});

test("a 2x step for 5 days is one anomaly, extended day by day, announced once", async () => {
  // EC2 100 a day, then 200 for the last 5 days; S3 a flat 1000 keeps the total's step under 30 %.
  const t = await tenantWith("Step Co", (id) => [
    ...daily(id, -40, -1, (d) => (d >= day(-5) ? "200" : "100")),
    ...daily(id, -40, -1, () => "1000", { serviceName: "Amazon S3" }),
  ]);
  const tenant = { id: t.id, organizationId: t.organizationId };
  // The daily detection, on each of the 5 days after a step day.
  const runs = [];
  for (let n = -4; n <= 0; n++) runs.push(await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(tenant, { days: 2 }, new Date(`${day(n)}T06:00:00.000Z`)));
  expect(runs.map((r) => [r.detected, r.extended])).toEqual([
    [1, 0],
    [0, 1],
    [0, 1],
    [0, 1],
    [0, 1],
  ]);
  expect(runs[0].anomalies).toEqual([expect.objectContaining({ start: day(-5), end: day(-5), days: 1 })]);
  // Detecting again over the whole range changes nothing.
  expect(await detect(t, 30)).toEqual({ detected: 0, extended: 0, anomalies: [] });
  const items = await list(t);
  expect(items).toEqual([
    {
      id: runs[0].anomalies[0].id,
      monitor: { kind: "service", service_name: "Amazon EC2" },
      currency: "USD",
      start: day(-5),
      end: day(-1),
      days: 5,
      day: day(-5),
      service_name: "Amazon EC2",
      cost: "1000.00",
      expected: "500.00",
      impact: "500.00",
      score: "10000.00",
      reason: "spike",
      feedback: null,
    },
  ]);
  const events = await detectedEvents(t);
  expect(events).toHaveLength(1);
  expect(events[0].data).toMatchObject({ tenant_id: t.id, anomaly: { id: items[0].id, start: day(-5), end: day(-5), days: 1 } });
});

test("a new service at 300 a day is one anomaly from its first day while it stays above the floors, reason new_service", async () => {
  const t = await tenantWith("New Service Co", (id) => [
    ...daily(id, -30, -1, () => "100"),
    ...daily(id, -3, -1, () => "300", { serviceName: "Amazon Bedrock" }),
  ]);
  const result = await detect(t);
  expect(ofService(result.anomalies, "Amazon Bedrock").map((a) => [a.start, a.end, a.days, a.cost, a.expected, a.impact, a.reason])).toEqual([
    // Its 3 days (within its first 14, each 300 over the floors against 0): 3 x 300 = 900.
    [day(-3), day(-1), 3, "900.00", "0.00", "900.00", "new_service"],
  ]);
  // The tenant's total jumps from 100 to 400: a spike, for the 3 days.
  expect(ofTotal(result.anomalies).map((a) => [a.start, a.end, a.days, a.reason])).toEqual([[day(-3), day(-1), 3, "spike"]]);
  expect(ofService(result.anomalies, "Amazon EC2")).toEqual([]);
});

test("a 50,000 purchase is not an anomaly; a -1,000 credit neither is one nor hides a usage spike the same day", async () => {
  const t = await tenantWith("Purchase Co", (id) => [
    ...daily(id, -30, -1, (d) => (d === day(-3) ? "400" : "100")),
    dayLine(id, day(-6), "50000", { chargeCategory: "Purchase", chargeFrequency: "One-Time", serviceName: "Savings Plans" }),
    dayLine(id, day(-6), "50000", { chargeCategory: "Purchase", chargeFrequency: "One-Time" }),
    dayLine(id, day(-3), "-1000", { chargeCategory: "Credit", chargeFrequency: "Usage-Based" }),
    dayLine(id, day(-3), "20", { chargeCategory: "Tax", chargeFrequency: "Usage-Based" }),
  ]);
  const result = await detect(t);
  expect(result.anomalies.map((a) => [a.monitor.kind, a.service_name, a.start, a.cost, a.expected])).toEqual([
    ["service", "Amazon EC2", day(-3), "400.00", "100.00"],
    ["total", null, day(-3), "400.00", "100.00"],
  ]);
});

test("feedback `no` ends the anomaly and mutes its monitor for 7 days; a late import is scored by the re-detection", async () => {
  const t = await tenantWith("Mute Co", (id) => [...daily(id, -40, -1, (d) => (d === day(-20) ? "400" : "100"))]);
  const [first] = ofService((await detect(t)).anomalies, "Amazon EC2");
  expect([first.start, first.days]).toEqual([day(-20), 1]);
  const res = await api(t, "patch", `/${first.id}`).send({ feedback: "no" });
  expect([res.status, res.body.data.feedback, res.body.data.end]).toEqual([200, "no", day(-20)]);
  // As if the feedback had been given on the spike's day: EC2 is muted from it to 6 days after.
  await ctx.prisma.spendAnomaly.update({
    where: { organizationId_id: { organizationId: t.organizationId, id: first.id } },
    data: { feedbackAt: new Date(`${day(-20)}T12:00:00.000Z`) },
  });
  // Late bills: the day after the spike (would have extended it), one within the mute, one after it (10 days ago).
  await seedSpend(ctx, t.organizationId, [dayLine(t.id, day(-19), "300"), dayLine(t.id, day(-16), "300"), dayLine(t.id, day(-10), "300")]);
  // Days beyond 93 days back are not re-detected; nothing happens for them.
  expect(await redetectAfterImport({ anomalies: anomalyServiceOver(ctx.prisma) }, t.organizationId, [day(-200)])).toEqual({
    detected: 0,
    extended: 0,
    anomalies: [],
  });
  let kicked = 0;
  const result = await redetectAfterImport({ anomalies: anomalyServiceOver(ctx.prisma), outbox: { kick: () => kicked++ } }, t.organizationId, [
    `${day(-19)}T00:00:00.000Z`,
    day(-16),
    day(-10),
  ]);
  expect(kicked).toBe(1);
  const ec2 = ofService(await list(t), "Amazon EC2");
  expect(ec2.map((a) => [a.start, a.end, a.days, a.cost, a.feedback])).toEqual([
    [day(-10), day(-10), 1, "400.00", null],
    [day(-20), day(-20), 1, "400.00", "no"],
  ]);
  expect(ofService(result.anomalies, "Amazon EC2").map((a) => a.start)).toEqual([day(-10)]);
  // Only that monitor is muted (the late days cost 400, at most 1.2 x the muted anomaly's largest day,
  // 400: 480): the total's anomaly of the spike grew by the day after it and by day -16, 2 normal days
  // later (-18, -17); day -10 (5 normal days after) is a new one.
  expect(ofTotal(await list(t)).map((a) => [a.start, a.end, a.days])).toEqual([
    [day(-10), day(-10), 1],
    [day(-20), day(-16), 5],
  ]);
  // `yes` keeps an anomaly open: the next day extends it.
  const [latest] = ec2;
  expect((await api(t, "patch", `/${latest.id}`).send({ feedback: "yes" })).status).toBe(200);
  await seedSpend(ctx, t.organizationId, [dayLine(t.id, day(-9), "300")]);
  await redetectAfterImport({ anomalies: anomalyServiceOver(ctx.prisma) }, t.organizationId, [day(-9)]);
  expect(ofService(await list(t), "Amazon EC2")[0]).toMatchObject({ id: latest.id, start: day(-10), end: day(-9), days: 2, cost: "800.00", feedback: "yes" });
});

test("a EUR tenant's anomalies are in EUR, the floors read in EUR", async () => {
  const t = await tenantWith("Euro Co", (id) => [...daily(id, -30, -1, (d) => (d === day(-10) ? "145" : d === day(-5) ? "160" : "100"), { currency: "EUR" })]);
  const settings = await request(ctx.app)
    .patch(`/api/v1/organizations/${t.organizationId}/settings`)
    .set("Authorization", `Bearer ${t.token}`)
    .send({ anomaly_min_usd: 50 });
  expect(settings.status).toBe(200);
  const result = await detect(t);
  // 45 EUR over (45 %) is under the 50 floor; 60 over is not.
  expect(result.anomalies.map((a) => [a.monitor.kind, a.currency, a.start, a.cost, a.expected, a.impact])).toEqual([
    ["service", "EUR", day(-5), "160.00", "100.00", "60.00"],
    ["total", "EUR", day(-5), "160.00", "100.00", "60.00"],
  ]);
});

test("the total monitor finds a spike spread thinly across many services that no service monitor flags", async () => {
  // 30 services at 10 a day; 4 days ago each costs 15 (5 over: under the 10 floor), the total 450 instead of 300.
  const t = await tenantWith("Thin Co", (id) =>
    Array.from({ length: 30 }, (_, s) => daily(id, -30, -1, (d) => (d === day(-4) ? "15" : "10"), { serviceName: `svc-${s}` })).flat(),
  );
  const result = await detect(t);
  expect(result.anomalies.map((a) => [a.monitor, a.service_name, a.start, a.cost, a.expected, a.impact])).toEqual([
    [{ kind: "total", service_name: null }, null, day(-4), "450.00", "300.00", "150.00"],
  ]);
});

test("20261128400000_anomalies_v2 turns a stored anomaly into a one-day USD spike of its service's monitor", async () => {
  const MIGRATION = "20261128400000_anomalies_v2";
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-before-"));
  for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < MIGRATION))
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  const db = await createTestDatabase(before);
  try {
    await db.sql.query(
      `INSERT INTO spend_anomalies (organization_id, tenant_id, id, service_name, day, cost, expected, impact, score, feedback, created_at) VALUES
         ('org_m', 'ten_m', 'ano_old', 'Amazon EC2', '2026-10-05', 300, 100, 200, 20000, NULL, '2026-10-06T00:00:00Z'),
         ('org_m', 'ten_m', 'ano_fed', 'Amazon S3', '2026-10-04', 30.5, 10, 20.5, 12.3456, 'planned_activity', '2026-10-05T00:00:00Z')`,
    );
    expect((await migrate(db.sql, MIGRATIONS_DIR)).applied).toContain(MIGRATION);
    const queryable = { $queryRawUnsafe: <T>(sql: string, ...params: unknown[]) => db.sql.query(sql, params) as Promise<T> };
    const rows = await findAnomalies(queryable as never, { id: "ten_m", organizationId: "org_m" }, "2026-10-01", "2026-11-01");
    expect(rows.map(toAnomaly)).toEqual([
      {
        id: "ano_old",
        monitor: { kind: "service", service_name: "Amazon EC2" },
        currency: "USD",
        start: "2026-10-05",
        end: "2026-10-05",
        days: 1,
        day: "2026-10-05",
        service_name: "Amazon EC2",
        cost: "300.00",
        expected: "100.00",
        impact: "200.00",
        score: "20000.00",
        reason: "spike",
        feedback: null,
      },
      expect.objectContaining({
        id: "ano_fed",
        start: "2026-10-04",
        end: "2026-10-04",
        days: 1,
        score: "12.35",
        reason: "spike",
        feedback: "planned_activity",
      }),
    ]);
    const [fed] = await db.sql.query<{ feedback_at: Date }>(`SELECT feedback_at FROM spend_anomalies WHERE id = 'ano_fed'`);
    expect(new Date(fed.feedback_at).toISOString()).toBe("2026-10-05T00:00:00.000Z");
  } finally {
    await db.close();
    fs.rmSync(before, { recursive: true, force: true });
  }
});

test("a FOCUS import through the API re-scores the days it holds: a bill 10 days late shows its spike without a detection run", async () => {
  const t = await tenantWith("Late bill Co", (id) => [...daily(id, -40, -11, () => "100")]);
  expect(await list(t)).toEqual([]);
  // The bill of the last 10 days arrives now, allocated to the tenant; 10 days ago EC2 cost 400.
  const rules = await request(ctx.app)
    .put(`/api/v1/organizations/${t.organizationId}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${t.token}`)
    .send({ rules: [{ tenant_id: t.id }] });
  expect(rules.status).toBe(200);
  const rows = Array.from({ length: 10 }, (_, i) => {
    const d = day(-10 + i);
    const month = `${d.slice(0, 7)}-01`;
    const next = new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)), 1)).toISOString();
    const cost = i === 0 ? "400" : "100";
    return {
      ChargePeriodStart: `${d}T00:00:00Z`,
      ChargePeriodEnd: `${addDays(d, 1)}T00:00:00Z`,
      BillingPeriodStart: `${month}T00:00:00Z`,
      BillingPeriodEnd: next,
      BillingAccountId: "late-acct",
      ServiceName: "Amazon EC2",
      BilledCost: cost,
      EffectiveCost: cost,
      ListCost: cost,
      ContractedCost: cost,
    };
  });
  const imported = await request(ctx.app)
    .post(`/api/v1/organizations/${t.organizationId}/spend/imports`)
    .set("Authorization", `Bearer ${t.token}`)
    .set("Content-Type", "text/csv")
    .send(focusCsvText(rows));
  expect(imported.status).toBe(201);
  expect(ofService(await list(t), "Amazon EC2").map((a) => [a.start, a.end, a.reason])).toEqual([[day(-10), day(-10), "spike"]]);
});
