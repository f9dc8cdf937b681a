// Anomalies that alert once (docs/api.md, "Spend anomalies"), on spend written through the ledger and
// detected at fixed times: a step change is one anomaly on the total monitor even when a few normal
// days interrupt it, a job on the 1st of each month stops alerting once the 1sts of the 2 previous
// months cost the same, a new service ramping from 200 to 5,000 a day is one new_service anomaly of
// its first 14 days, and feedback `no` mutes its monitor only for days up to 1.2 x the muted
// anomaly's largest day. Every expected value is worked out beside it.
import { Decimal } from "@cloudcost/decimal";
import type { Anomaly } from "@cloudcost/contracts";
import { anomalyServiceOver } from "../src/anomalies/service";
import type { LedgerLineInput } from "../src/spend/lines-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

/** A new organization (default floors: 10 and 30 %) with one tenant and these lines. */
async function tenantWith(company: string, lines: (tenantId: string) => LedgerLineInput[]) {
  const owner = await signUp(ctx, { company });
  await seedSpend(ctx, owner.organization.id, lines(owner.tenant.id));
  return { id: owner.tenant.id, organizationId: owner.organization.id };
}
/** One line a day from `from` to `to` (inclusive) of `cost(day)` (none when null). */
const daily = (tenantId: string, from: string, to: string, service: string, cost: (day: string) => string | null) => {
  const lines: LedgerLineInput[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const value = cost(day);
    if (value !== null) lines.push(dayLine(tenantId, day, value, { serviceName: service }));
  }
  return lines;
};
const ofService = (items: Anomaly[], service: string) => items.filter((a) => a.monitor.kind === "service" && a.monitor.service_name === service);
const ofTotal = (items: Anomaly[]) => items.filter((a) => a.monitor.kind === "total");
const shape = (a: Anomaly) => [a.start, a.end, a.days, a.cost, a.expected, a.impact, a.reason];
const events = async (organizationId: string) => ctx.prisma.webhookEvent.count({ where: { organizationId, type: "anomaly.detected" } });

test("a step change is one anomaly on the total monitor, though 3 normal days interrupt it (was 3: Nov 11-15, 17-21, 24)", async () => {
  // EC2 100 a day, S3 1,000 a day from Oct 1; EC2 steps to 500 from Nov 11 to Nov 24 (14 days); S3
  // dips to 800 on Nov 16, 22 and 23. Total: 1,100 before; 1,500 in the step; 1,300 on the dip days.
  const t = await tenantWith("Step Co", (id) => [
    ...daily(id, "2026-10-01", "2026-11-30", "Amazon EC2", (d) => (d >= "2026-11-11" && d <= "2026-11-24" ? "500" : "100")),
    ...daily(id, "2026-10-01", "2026-11-30", "Amazon S3", (d) => (["2026-11-16", "2026-11-22", "2026-11-23"].includes(d) ? "800" : "1000")),
  ]);
  const result = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(t, { days: 61 }, new Date("2026-12-01T08:00:00Z"));
  // EC2: each step day against its weekday baseline (at most one 500 among the 4 same weekdays
  // before: median 100) is +400: one anomaly of 14 days, 14 x 500 = 7,000 against 14 x 100 = 1,400.
  expect(ofService(result.anomalies, "Amazon EC2").map(shape)).toEqual([["2026-11-11", "2026-11-24", 14, "7000.00", "1400.00", "5600.00", "spike"]]);
  // Total: the step days are +400 over 1,100 (over 30 % of it: 330); the dip days +200 are not.
  // Anomalous Nov 11-15, 17-21 and 24: gaps of 1 (Nov 16) and 2 (Nov 22-23) normal days, so one
  // anomaly from Nov 11 to 24 (14 days) summing its 11 anomalous days: 11 x 1,500 = 16,500 against
  // 11 x 1,100 = 12,100, impact 4,400.
  expect(ofTotal(result.anomalies).map(shape)).toEqual([["2026-11-11", "2026-11-24", 14, "16500.00", "12100.00", "4400.00", "spike"]]);
  // One anomaly.detected each (S3's dips are not anomalies).
  expect(result.detected).toBe(2);
  expect(await events(t.organizationId)).toBe(2);
});

test("a job on the 1st of each month alerts on Aug 1 and Sep 1, then is expected (was every month)", async () => {
  // AWS Batch 50 a day from Jul 1, plus a 1,000 job on the 1st of Aug, Sep, Oct and Nov (1,050 those days).
  const t = await tenantWith("Monthly Co", (id) =>
    daily(id, "2026-07-01", "2026-11-30", "AWS Batch", (d) => (d.endsWith("-01") && d !== "2026-07-01" ? "1050" : "50")),
  );
  // Detect Aug 1 to Nov 30 (122 days, in two runs: at most 93 a run).
  const first = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(t, { days: 62 }, new Date("2026-10-02T08:00:00Z"));
  const second = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(t, { days: 60 }, new Date("2026-12-01T08:00:00Z"));
  // Aug 1 and Sep 1: 1,050 against a weekday median of 50 (impact 1,000). Oct 1: Sep 1 and Aug 1 both
  // cost 1,050 (within 20 %): expected. Nov 1: Oct 1 and Sep 1 too.
  const days = (items: Anomaly[]) => items.map((a) => `${a.monitor.kind} ${a.start}`).sort();
  expect(days(first.anomalies)).toEqual(["service 2026-08-01", "service 2026-09-01", "total 2026-08-01", "total 2026-09-01"]);
  expect(second.anomalies).toEqual([]);
});

test("a new service ramping from 200 to 5,000 a day is one new_service anomaly of its first 14 days (was one 200 alert)", async () => {
  // EC2 1,000 a day from Oct 1; SageMaker from Nov 1: 200 + 400 k on day k (k = 0..12, up to 5,000), then 5,000.
  const ramp = (d: string) => {
    if (d < "2026-11-01") return null;
    const k = Math.round((Date.parse(d) - Date.parse("2026-11-01")) / 86_400_000);
    return String(Math.min(200 + 400 * k, 5000));
  };
  const t = await tenantWith("Ramp Co", (id) => [
    ...daily(id, "2026-10-01", "2026-11-20", "Amazon EC2", () => "1000"),
    ...daily(id, "2026-11-01", "2026-11-20", "Amazon SageMaker", ramp),
  ]);
  const result = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(t, { days: 30 }, new Date("2026-11-21T08:00:00Z"));
  // Nov 1-14 each against 0, all above the floors: one anomaly, cost = impact = (200 + 5,000) x 13 / 2
  // + 5,000 = 38,800. Nov 15 against the 14 days before (median 2,800, scaled MAD 2,075.64): score 1.06, normal.
  expect(ofService(result.anomalies, "Amazon SageMaker").map(shape)).toEqual([["2026-11-01", "2026-11-14", 14, "38800.00", "0.00", "38800.00", "new_service"]]);
});

test("feedback `no` mutes days up to 1.2 x the anomaly's largest day: a larger spike 6 days later is a new anomaly", async () => {
  // EC2 100 a day from Oct 1; 300 on Nov 10; 350 on Nov 14; 397 on Nov 16.
  const spikes: Record<string, string> = { "2026-11-10": "300", "2026-11-14": "350", "2026-11-16": "397" };
  const t = await tenantWith("Mute Bound Co", (id) => daily(id, "2026-10-01", "2026-11-30", "Amazon EC2", (d) => spikes[d] ?? "100"));
  const first = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(t, { days: 41 }, new Date("2026-11-11T08:00:00Z"));
  const [spike] = ofService(first.anomalies, "Amazon EC2");
  expect(shape(spike)).toEqual(["2026-11-10", "2026-11-10", 1, "300.00", "100.00", "200.00", "spike"]);
  // `no` on Nov 11: EC2 muted from Nov 10 to Nov 17, for days costing at most 1.2 x 300 = 360.
  await anomalyServiceOver(ctx.prisma).setAnomalyFeedback(t, spike.id, "no", new Date("2026-11-11T12:00:00Z"));
  const second = await anomalyServiceOver(ctx.prisma).detectTenantAnomalies(t, { days: 20 }, new Date("2026-12-01T08:00:00Z"));
  // Nov 14 (350 <= 360) stays muted; Nov 16 (397 > 360, impact 297) is a new anomaly.
  expect(ofService(second.anomalies, "Amazon EC2").map(shape)).toEqual([["2026-11-16", "2026-11-16", 1, "397.00", "100.00", "297.00", "spike"]]);
  const peak = await ctx.prisma.spendAnomaly.findFirstOrThrow({ where: { organizationId: t.organizationId, id: spike.id } });
  expect(new Decimal(peak.peakCost.toString()).toFixed(2)).toBe("300.00");
});
