// Budget arithmetic without a database: UTC period bounds, the forecast, thresholds at the boundary,
// the state. Every expected value is computed by hand in the comments.
import Decimal from "decimal.js";
import { budgetState, forecast, forecastWindow, isCrossed, percentUsed, periodBounds } from "../src/budgets/rules";

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

describe("forecast", () => {
  const november = periodBounds("monthly", at("2026-11-01T00:00:00.000Z"));

  it("uses the last 7 complete days once there are 7", () => {
    // 2026-11-11T00:00Z: complete days are Nov 1-10; the window is Nov 4-10 (7 days).
    const now = at("2026-11-11T00:00:00.000Z");
    const window = forecastWindow(november, now);
    expect([window.start.toISOString(), window.end.toISOString(), window.days]).toEqual(["2026-11-04T00:00:00.000Z", "2026-11-11T00:00:00.000Z", 7]);
    // spent 1000, last 7 days 700 -> mean 100/day, 20 days left (Nov 11-30) -> 1000 + 2000 = 3000.
    expect(forecast({ spent: 1000, windowSpent: 700, windowDays: 7, now, periodEnd: november.end }).toFixed(2)).toBe("3000.00");
  });

  it("uses the period so far when it is shorter than 7 days", () => {
    // 2026-11-04T00:00Z: 3 complete days (Nov 1-3) with 90 spent -> mean 30, 27 days left -> 90 + 810 = 900.
    const now = at("2026-11-04T00:00:00.000Z");
    expect(forecastWindow(november, now).days).toBe(3);
    expect(forecast({ spent: 90, windowSpent: 90, windowDays: 3, now, periodEnd: november.end }).toFixed(2)).toBe("900.00");
  });

  it("counts the rest of today in fractional days (today's spend so far is in spent)", () => {
    // Nov 30 at 18:00: 6 h left = 0.25 day; window Nov 23-29, 7 x 40 = 280 -> mean 40 -> 1234.56 + 10 = 1244.56.
    const now = at("2026-11-30T18:00:00.000Z");
    const window = forecastWindow(november, now);
    expect([window.start.toISOString(), window.days]).toEqual(["2026-11-23T00:00:00.000Z", 7]);
    expect(forecast({ spent: "1234.56", windowSpent: 280, windowDays: 7, now, periodEnd: november.end }).toFixed(2)).toBe("1244.56");
  });

  it("is the spend so far on the period's first day, and rounds half-up to cents", () => {
    const now = at("2026-11-01T09:00:00.000Z");
    expect(forecastWindow(november, now).days).toBe(0);
    expect(forecast({ spent: "12.345", windowSpent: 0, windowDays: 0, now, periodEnd: november.end }).toFixed(2)).toBe("12.35");
    // Exact decimals: 3 days of 0.1 each = 0.3 over 3 -> 0.1/day x 27 days = 2.7; + 0.3 = 3.00 (no float drift).
    const nov4 = at("2026-11-04T00:00:00.000Z");
    expect(forecast({ spent: "0.3", windowSpent: "0.3", windowDays: 3, now: nov4, periodEnd: november.end }).toFixed(2)).toBe("3.00");
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
