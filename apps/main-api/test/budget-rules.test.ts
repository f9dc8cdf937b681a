// Budget arithmetic without a database: UTC period bounds, the forecast, thresholds at the boundary,
// the state. Every expected value is computed by hand in the comments.
import { Decimal } from "@cloudcost/decimal";
import { budgetState, isCrossed, percentUsed } from "../src/budgets/rules";
import { periodBounds } from "../src/spend/forecast/periods";
import { computeForecast } from "../src/spend/forecast/rules";

const at = (iso: string) => new Date(iso);
const iso = (bounds: { start: Date; end: Date }) => [bounds.start.toISOString(), bounds.end.toISOString()];

describe("period bounds (UTC)", () => {
  it.each([
    ["monthly", "2026-02-14T12:00:00.000Z", "2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
    ["monthly", "2026-12-31T23:59:59.999Z", "2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
    ["monthly", "2026-03-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"],
    ["quarterly", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"],
    ["quarterly", "2026-06-30T23:59:59.999Z", "2026-04-01T00:00:00.000Z", "2026-07-01T00:00:00.000Z"],
    ["quarterly", "2026-11-25T15:00:00.000Z", "2026-10-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
    ["annual", "2026-11-25T15:00:00.000Z", "2026-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
    ["annual", "2027-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z", "2028-01-01T00:00:00.000Z"],
  ] as const)("%s at %s", (period, now, start, end) => {
    expect(iso(periodBounds(period, at(now)))).toEqual([start, end]);
  });

  it("a period in another time zone's evening is still the UTC period", () => {
    // 2026-01-31T20:00-05:00 is 2026-02-01T01:00Z: February.
    expect(iso(periodBounds("monthly", at("2026-01-31T20:00:00-05:00")))[0]).toBe("2026-02-01T00:00:00.000Z");
  });
});

const days = (entries: [string, number, number?][]) =>
  new Map(entries.map(([day, usage, other = 0]) => [day, { usage: new Decimal(usage), other: new Decimal(other) }]));
/** Every day from `from` (inclusive) to `to` (exclusive), as YYYY-MM-DD. */
const span = (from: string, to: string) => {
  const out: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms < Date.parse(`${to}T00:00:00Z`); ms += 86_400_000) out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
};

describe("forecast: spent + recurring charges to come + usage run rate x days left", () => {
  const december = periodBounds("monthly", at("2026-12-01T00:00:00.000Z"));

  it("a 30,000 fee on the 1st is spent, not extrapolated: day 2 of a 1,000/day month forecasts 61,000", () => {
    // History from Nov 25 (7 complete days before Dec 2): the recent mean is 1,000/day. Spent: 30,000 + 2 x 1,000;
    // the days after the last day with data (Dec 3-31) are 29 x 1,000; the fee's next charge (Jan 1) is after the period.
    const series = days([...span("2026-11-25", "2026-12-03").map((day): [string, number] => [day, 1000]), ["2026-12-01", 1000, 30000]]);
    const fee = { start: at("2026-12-01T00:00:00Z"), end: at("2027-01-01T00:00:00Z"), amount: new Decimal(30000) };
    const result = computeForecast({ period: december, now: at("2026-12-02T12:00:00Z"), days: series, recurring: [fee] });
    expect(result.basis).toBe("recent_mean");
    expect(result.spent.toFixed()).toBe("32000");
    expect(result.recurringRemaining.toFixed()).toBe("0");
    expect(result.usageRemaining.toFixed()).toBe("29000");
    expect(result.forecast?.toFixed()).toBe("61000");
    expect(result.rows[0]).toEqual({ day: "2026-12-01", actual: new Decimal(31000), expected: null, expectedLow: null, expectedHigh: null });
    // Every reference day was 1,000, so the day's 80 % interval is 1,000 to 1,000.
    const thousand = new Decimal(1000);
    expect(result.rows[2]).toEqual({ day: "2026-12-03", actual: null, expected: thousand, expectedLow: thousand, expectedHigh: thousand });
  });

  it("an annual forecast counts the 11 monthly fees still to come, and a fee that stopped coming has ended", () => {
    const year = periodBounds("annual", at("2027-01-02T00:00:00Z"));
    const series = days(span("2026-12-20", "2027-01-02").map((day): [string, number] => [day, 0]));
    const monthly = { start: at("2027-01-01T00:00:00Z"), end: at("2027-02-01T00:00:00Z"), amount: new Decimal("99.5") };
    const stopped = { start: at("2026-10-01T00:00:00Z"), end: at("2026-11-01T00:00:00Z"), amount: new Decimal(1000) };
    const result = computeForecast({ period: year, now: at("2027-01-02T08:00:00Z"), days: series, recurring: [monthly, stopped] });
    expect(result.recurringRemaining.toFixed()).toBe("1094.5"); // Feb 1 ... Dec 1: 11 x 99.5
    expect(result.rows.find((row) => row.day === "2027-03-01")?.expected?.toFixed()).toBe("99.5");
  });

  it("with 28 days of history the run rate of a weekday is the median of its last 4: a Sunday job is expected on Sundays only", () => {
    // 100/day, +500 on Sundays, from 2026-11-01 (a Sunday) to 2026-12-08.
    const series = days(span("2026-11-01", "2026-12-09").map((day): [string, number] => [day, new Date(`${day}T00:00:00Z`).getUTCDay() === 0 ? 600 : 100]));
    const result = computeForecast({ period: december, now: at("2026-12-09T06:00:00Z"), days: series, recurring: [] });
    expect(result.basis).toBe("weekday_median");
    const expected = (day: string) => result.rows.find((row) => row.day === day)?.expected?.toFixed();
    expect(expected("2026-12-13")).toBe("600"); // a Sunday
    expect(expected("2026-12-14")).toBe("100");
    // Spent Dec 1-8 (one Sunday): 8 x 100 + 500; Dec 9-31: 23 days, 3 Sundays -> 23 x 100 + 3 x 500.
    expect(result.forecast?.toFixed()).toBe(String(1300 + 2300 + 1500));
  });

  it("no forecast with fewer than 3 complete days of history", () => {
    const result = computeForecast({ period: december, now: at("2026-12-02T12:00:00Z"), days: days([["2026-12-01", 50]]), recurring: [] });
    expect(result.basis).toBe("none");
    expect(result.forecast).toBeNull();
    expect(result.spent.toFixed()).toBe("50");
  });

  it("days a late bill has not reached yet are expected, not counted as zero", () => {
    // Data up to Nov 28 only; now Dec 2: the run rate is read from the complete days with data (every one 70),
    // not from Nov 25-Dec 1 with the 3 empty days as zeros (which gave 4 x 70 / 7 = 40). Dec 1-31 are all
    // expected at 70, each day's interval 70 to 70 (its reference days are all 70): 31 x 70 = 2,170.
    const series = days(span("2026-11-20", "2026-11-29").map((day): [string, number] => [day, 70]));
    const result = computeForecast({ period: december, now: at("2026-12-02T00:00:00Z"), days: series, recurring: [] });
    const seventy = new Decimal(70);
    expect(result.rows[0]).toEqual({ day: "2026-12-01", actual: null, expected: seventy, expectedLow: seventy, expectedHigh: seventy });
    expect(result.forecast?.toFixed()).toBe("2170");
  });
});

describe("thresholds and state", () => {
  const amounts = { amount: "1000", spent: "799.99", forecast: "800.00" };

  it("a threshold is crossed when its measure reaches the percent of the amount, not before", () => {
    expect(isCrossed({ percent: 80, kind: "actual" }, amounts)).toBe(false); // 799.99 < 800
    expect(isCrossed({ percent: 80, kind: "forecast" }, amounts)).toBe(true); // 800.00 >= 800
    expect(isCrossed({ percent: 80, kind: "actual" }, { ...amounts, spent: "800" })).toBe(true);
    expect(isCrossed({ percent: 100, kind: "forecast" }, amounts)).toBe(false);
    // 33% of 100.01 is 33.0033: 33.00 has not reached it.
    expect(isCrossed({ percent: 33, kind: "actual" }, { amount: "100.01", spent: "33.00", forecast: "0" })).toBe(false);
  });

  it("state: exceeded once spent reaches the amount, warning when a threshold is crossed, ok otherwise", () => {
    expect(budgetState("1000", "1000", [])).toBe("exceeded");
    expect(budgetState("1000", "999.99", [{ percent: 50, kind: "actual" }])).toBe("warning");
    expect(budgetState("1000", "999.99", [])).toBe("ok");
    expect(percentUsed("1000", "799.994").toFixed(2)).toBe("80.00");
    expect(percentUsed("3", "1").toString()).toBe(new Decimal("33.33").toString());
  });
});
