// Forecasts on data as it really arrives (docs/api.md, "Spend forecast"): today's partial day is
// not a complete day, a bill that is days late is not averaged as zeros, and an 80 % interval
// (forecast_low, forecast_high) comes with the forecast. Budgets' forecast thresholds compare the
// forecast itself. Every expected value is worked out beside it.
import { Decimal } from "@cloudcost/decimal";
import request from "supertest";
import { budgetStatus, budgetStatusReadsOver } from "../src/budgets/status";
import { periodBounds } from "../src/spend/forecast/periods";
import { computeForecast, percentile } from "../src/spend/forecast/rules";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp, type SignedUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);
/** Every day from `from` (inclusive) to `to` (exclusive), as YYYY-MM-DD. */
const span = (from: string, to: string) => {
  const out: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms < Date.parse(`${to}T00:00:00Z`); ms += DAY) out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
};
const usageDays = (entries: [string, string][]) => new Map(entries.map(([day, usage]) => [day, { usage: new Decimal(usage), other: new Decimal(0) }]));
const november = periodBounds("monthly", at("2026-11-01T00:00:00Z"));
const text = (value: Decimal | null) => value?.toFixed(2) ?? null;

// November 2026 (30 days), 240 USD of usage a day since Nov 1: the month costs 30 x 240 = 7,200.
// Fewer than 28 days of usage history, so the run rate is the mean of the last 7 complete days.
describe("November at 240 USD a day, seen on Nov 20 at 06:00", () => {
  const now = at("2026-11-20T06:00:00Z");
  const flat = (from: string, to: string) => span(from, to).map((day): [string, string] => [day, "240"]);

  it("today's partial day (60 so far) is not a complete day: 7,200, not 7,020", () => {
    const result = computeForecast({ period: november, now, days: usageDays([...flat("2026-11-01", "2026-11-20"), ["2026-11-20", "60"]]), recurring: [] });
    // Spent: Nov 1-19 = 19 x 240 = 4,560, + today's 60 = 4,620. Days left: today at 240 - 60 = 180,
    // and Nov 21-30 = 10 x 240 = 2,400: 2,580. 4,620 + 2,580 = 7,200. (Before: today was complete,
    // only Nov 21-30 were left: 4,620 + 2,400 = 7,020, 2.5 % low.)
    expect(text(result.spent)).toBe("4620.00");
    expect(text(result.usageRemaining)).toBe("2580.00");
    expect(text(result.forecast)).toBe("7200.00");
    expect(result.dataThrough).toBe("2026-11-20");
    expect(result.basis).toBe("recent_mean");
    // Every day of the reference set is 240: the interval is the forecast.
    expect([text(result.forecastLow), text(result.forecastHigh)]).toEqual(["7200.00", "7200.00"]);
    const today = result.rows.find((row) => row.day === "2026-11-20");
    expect([text(today?.actual ?? null), text(today?.expected ?? null)]).toEqual(["60.00", "180.00"]);
  });

  it("a today already above its run rate expects nothing more of today (at least 0)", () => {
    const result = computeForecast({ period: november, now, days: usageDays([...flat("2026-11-01", "2026-11-20"), ["2026-11-20", "300"]]), recurring: [] });
    // 4,560 + 300 = 4,860 spent; today max(240 - 300, 0) = 0; Nov 21-30 2,400: 7,260.
    expect(text(result.forecast)).toBe("7260.00");
    expect(text(result.rows.find((row) => row.day === "2026-11-20")?.expected ?? null)).toBe("0.00");
  });

  it("a bill two days late (Nov 18 and 19 not in yet) is not averaged as zeros: 7,200, not 6,308.57 (-12.4 %)", () => {
    const result = computeForecast({ period: november, now, days: usageDays(flat("2026-11-01", "2026-11-18")), recurring: [] });
    // Data through Nov 17: spent 17 x 240 = 4,080. The run rate is the mean of Nov 11-17 (the last 7
    // complete days with data) = 240, for Nov 18-30 (13 days) = 3,120: 7,200. (Before: the mean of
    // Nov 13-19 with Nov 18 and 19 as zeros = 5 x 240 / 7 = 171.43, x 13 = 2,228.57: 6,308.57.)
    expect(result.dataThrough).toBe("2026-11-17");
    expect(text(result.spent)).toBe("4080.00");
    expect(text(result.usageRemaining)).toBe("3120.00");
    expect(text(result.forecast)).toBe("7200.00");
    // The late days are expected, not actual.
    expect(result.rows.find((row) => row.day === "2026-11-18")).toMatchObject({ actual: null });
    expect(text(result.rows.find((row) => row.day === "2026-11-18")?.expected ?? null)).toBe("240.00");
  });

  it("three days late (Nov 17 to 19): 7,200, not 5,760 (-20 %)", () => {
    const result = computeForecast({ period: november, now, days: usageDays(flat("2026-11-01", "2026-11-17")), recurring: [] });
    // Data through Nov 16: 16 x 240 = 3,840; Nov 17-30 (14 days) x the mean of Nov 10-16 (240) = 3,360:
    // 7,200. (Before: 4 x 240 / 7 = 137.14 a day x 14 = 1,920: 5,760.)
    expect(result.dataThrough).toBe("2026-11-16");
    expect(text(result.forecast)).toBe("7200.00");
  });
});

// December 2026 on the weekday basis: from Monday Nov 2, week w (0-based) costs 100 x (1 + w mod 4) a
// day, so the last 4 of any weekday are 100, 200, 300 and 400 in some order.
describe("the 80 % interval, weekday basis, a bill a day late", () => {
  const weekly = span("2026-11-02", "2026-12-28").map((day): [string, string] => {
    const week = Math.floor((Date.parse(`${day}T00:00:00Z`) - Date.parse("2026-11-02T00:00:00Z")) / (7 * DAY));
    return [day, String(100 * (1 + (week % 4)))];
  });
  const december = periodBounds("monthly", at("2026-12-01T00:00:00Z"));

  it("percentiles interpolate linearly between the closest ranks", () => {
    const set = ["400", "100", "300", "200"].map((v) => new Decimal(v));
    // Position 0.1 x 3 = 0.3: 100 + 0.3 x (200 - 100) = 130; 0.9 x 3 = 2.7: 300 + 0.7 x (400 - 300) = 370.
    expect(percentile(set, "0.1").toFixed()).toBe("130");
    expect(percentile(set, "0.9").toFixed()).toBe("370");
    expect(percentile([new Decimal(5)], "0.9").toFixed()).toBe("5");
  });

  it("Dec 29 06:00, data through Dec 27: 7,900 between 7,420 and 8,380", () => {
    const result = computeForecast({ period: december, now: at("2026-12-29T06:00:00Z"), days: usageDays(weekly), recurring: [] });
    // Spent: Dec 1-6 (week 4) 6 x 100 + Dec 7-13 7 x 200 + Dec 14-20 7 x 300 + Dec 21-27 7 x 400 = 6,900.
    // Days left Dec 28-31 (4): each day's reference set (its last 4 weekdays up to Dec 27) is
    // {100, 200, 300, 400}: median 250, 10th percentile 130, 90th 370.
    // forecast 6,900 + 4 x 250 = 7,900; low 6,900 + 4 x 130 = 7,420; high 6,900 + 4 x 370 = 8,380.
    expect(result.basis).toBe("weekday_median");
    expect(result.dataThrough).toBe("2026-12-27");
    expect([text(result.spent), text(result.forecast), text(result.forecastLow), text(result.forecastHigh)]).toEqual([
      "6900.00",
      "7900.00",
      "7420.00",
      "8380.00",
    ]);
    expect(
      result.rows.filter((row) => row.expected !== null).map((row) => [row.day, text(row.expectedLow), text(row.expected), text(row.expectedHigh)]),
    ).toEqual(["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31"].map((day) => [day, "130.00", "250.00", "370.00"]));
  });
});

describe("the endpoint and budgets (database)", () => {
  let ctx: TestContext;
  let org: SignedUp;
  const NOW = at("2026-12-29T06:00:00Z");
  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.deps.clock = () => NOW;
    org = await signUp(ctx, { company: "Late Bills Co" });
    const lines = [];
    for (let day = "2026-11-02"; day < "2026-12-28"; day = addDays(day, 1)) {
      const week = Math.floor((Date.parse(`${day}T00:00:00Z`) - Date.parse("2026-11-02T00:00:00Z")) / (7 * DAY));
      lines.push(dayLine(org.tenant.id, day, String(100 * (1 + (week % 4)))));
    }
    await seedSpend(ctx, org.organization.id, lines);
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
  });

  it("answers data_through and the interval beside the forecast (the weekday scenario above)", async () => {
    const res = await request(ctx.app)
      .get("/api/v1/tenant/spend/forecast")
      .set("Authorization", `Bearer ${org.token}`)
      .set("X-Service-Tenant-ID", org.tenant.id)
      .expect(200);
    expect(res.body.data).toMatchObject({
      data_through: "2026-12-27",
      spent: "6900.00",
      forecast: "7900.00",
      forecast_low: "7420.00",
      forecast_high: "8380.00",
      basis: "weekday_median",
    });
    expect(res.body.data.rows[27]).toEqual({ day: "2026-12-28", actual: null, expected: "250.00", expected_low: "130.00", expected_high: "370.00" });
    expect(res.body.data.rows[26]).toEqual({ day: "2026-12-27", actual: "400.00", expected: null, expected_low: null, expected_high: null });
  });

  it("a forecast threshold compares the forecast itself, not the interval's high end", async () => {
    const spec = (amount: string) => ({
      organizationId: org.organization.id,
      tenantId: org.tenant.id,
      period: "monthly" as const,
      amount,
      currency: "USD",
      metric: "billed_cost" as const,
      filters: {},
      thresholds: [{ percent: 100, kind: "forecast" as const }],
    });
    // 7,900 reaches 100 % of 7,900; it does not reach 100 % of 8,000, though forecast_high (8,380) does.
    expect(await budgetStatus(budgetStatusReadsOver(ctx.prisma), spec("7900"), NOW)).toMatchObject({
      forecast: "7900.00",
      crossed: [{ percent: 100, kind: "forecast" }],
    });
    expect(await budgetStatus(budgetStatusReadsOver(ctx.prisma), spec("8000"), NOW)).toMatchObject({ forecast: "7900.00", crossed: [] });
  });
});
