// Anomaly detection on demand is bounded (docs/api.md, "Spend anomalies"): it covers at most 93
// days (a larger `days` is a 400 naming the field), and each tenant has at most 200 service
// monitors, the services with the most cost in the days scored, besides its total (in the currencies
// of those services). Before, any `days` up to 400 was taken and every service and currency was a
// monitor with a dense series of its own: 10,000 of either made one detection take over a minute.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, signUp, type SignedUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
const today = new Date().toISOString().slice(0, 10);
const day = (n: number) => addDays(today, n);

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const detect = (o: SignedUp, body: unknown) =>
  request(ctx.app)
    .post("/api/v1/tenant/spend/anomalies/detect")
    .set("Authorization", `Bearer ${o.token}`)
    .set("X-Service-Tenant-ID", o.tenant.id)
    .send(body as object);
const usage = (tenantId: string, d: string, cost: string, serviceName: string) =>
  dayLine(tenantId, d, cost, { source: "usage", chargeFrequency: "Usage-Based", serviceName });
const svc = (i: number) => `svc-${String(i).padStart(5, "0")}`;
/** The i-th three-letter code: AAA, AAB, ... (codes sort as their numbers). */
const currency = (i: number) => String.fromCharCode(65 + Math.floor(i / 676), 65 + (Math.floor(i / 26) % 26), 65 + (i % 26));

describe("POST /api/v1/tenant/spend/anomalies/detect", () => {
  it("scores at most 93 days: 94 or 400 is a 400 naming days, 93 answers", async () => {
    const org = await signUp(ctx, { company: "Ninety-three" });
    for (const days of [94, 400]) expectError(await detect(org, { days }), 400, /days/);
    expect((await detect(org, { days: 93 })).status).toBe(200);
  });

  it("with 250 services new yesterday, only the 200 with the most cost (and the total) are monitored", async () => {
    const org = await signUp(ctx, { company: "Many services" });
    // 100/day of "Base" for 40 days (the tenant is established), then yesterday 250 new services costing 1,000 + i each.
    const lines = Array.from({ length: 40 }, (_, i) => usage(org.tenant.id, day(-40 + i), "100", "Base"));
    for (let i = 0; i < 250; i++) lines.push(usage(org.tenant.id, day(-1), String(1000 + i), svc(i)));
    await seedSpend(ctx, org.organization.id, lines);

    const res = await detect(org, { days: 1 }).expect(200);
    const anomalies = res.body.data.anomalies as { monitor: { kind: string; service_name: string | null }; reason: string }[];
    // Every monitor scored yesterday is an anomaly (a new service over both floors; the total 251,225 over 100):
    // the monitored services are exactly svc-00050 .. svc-00249 (1,050 to 1,249), plus the total.
    const services = anomalies.filter((a) => a.monitor.kind === "service").map((a) => a.monitor.service_name);
    expect(services.sort()).toEqual(Array.from({ length: 200 }, (_, i) => svc(50 + i)));
    expect(anomalies.filter((a) => a.monitor.kind === "total")).toHaveLength(1);
    expect(res.body.data.detected).toBe(201);
    // Scoring 93 days of the same ledger monitors the same services: nothing new.
    expect((await detect(org, { days: 93 }).expect(200)).body.data.detected).toBe(0);
  }, 60_000);

  it("with services in 210 currencies, the 200 monitored take turns by currency (codes in order), each with its currency's total", async () => {
    const org = await signUp(ctx, { company: "Many currencies" });
    // Per currency: its service at 100/day for 30 days, then 1,000 + i yesterday (a spike of the service and of the total).
    const lines = [];
    for (let i = 0; i < 210; i++)
      for (let d = -31; d <= -1; d++)
        lines.push({ ...usage(org.tenant.id, day(d), d === -1 ? String(1000 + i) : "100", `Service ${currency(i)}`), currency: currency(i) });
    await seedSpend(ctx, org.organization.id, lines);

    const res = await detect(org, { days: 1 }).expect(200);
    const anomalies = res.body.data.anomalies as { monitor: { kind: string; service_name: string | null }; currency: string; reason: string }[];
    // One service per currency: each currency's first turn takes the 200 first codes (AAA ... ) and the 10 last none.
    const first200 = Array.from({ length: 200 }, (_, i) => currency(i)).sort();
    expect([...new Set(anomalies.filter((a) => a.monitor.kind === "service").map((a) => a.currency))].sort()).toEqual(first200);
    expect(
      anomalies
        .filter((a) => a.monitor.kind === "total")
        .map((a) => a.currency)
        .sort(),
    ).toEqual(first200);
    expect(res.body.data.detected).toBe(400);
  }, 60_000);

  it("10,000 services spread over 93 days: a 93-day detection answers in seconds, at most 200 services scored", async () => {
    const org = await signUp(ctx, { company: "Ten thousand services" });
    const lines = Array.from({ length: 120 }, (_, i) => usage(org.tenant.id, day(-120 + i), "100", "Base"));
    for (let i = 0; i < 10_000; i++) lines.push(usage(org.tenant.id, day(-1 - (i % 93)), String(1 + (i % 500)), svc(i)));
    for (let i = 0; i < lines.length; i += 2000) await seedSpend(ctx, org.organization.id, lines.slice(i, i + 2000));

    // Before: 146 s on PGlite (a dense 121-day series for each of the 10,001 monitors); now about 3 s.
    const started = Date.now();
    const res = await detect(org, { days: 93 }).expect(200);
    expect(Date.now() - started).toBeLessThan(30_000);
    const scored = new Set((res.body.data.anomalies as { monitor: { service_name: string | null } }[]).map((a) => a.monitor.service_name));
    expect(scored.size).toBeGreaterThan(0);
    expect(scored.size).toBeLessThanOrEqual(201);
  }, 120_000);

  it("10,000 currencies in the history of a 93-day detection: it answers in seconds", async () => {
    const org = await signUp(ctx, { company: "Ten thousand currencies" });
    const lines = Array.from({ length: 10_000 }, (_, i) => ({
      ...usage(org.tenant.id, day(-93 - (i % 28)), String(1 + (i % 500)), svc(i)),
      currency: currency(i),
    }));
    for (let i = 0; i < lines.length; i += 2000) await seedSpend(ctx, org.organization.id, lines.slice(i, i + 2000));

    // Before: 104 s on PGlite (every currency's total a dense 121-day series); now about 2 s (at most 200 of them).
    const started = Date.now();
    await detect(org, { days: 93 }).expect(200);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 120_000);
});
