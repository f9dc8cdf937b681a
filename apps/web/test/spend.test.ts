import type { SpendRow } from "@cloudcost/contracts";
import { describe, expect, it } from "vitest";
import { scaleDecimal, sumDecimals } from "../src/shared/decimal";
import { exportQuery, filtersOf, forecastCurve, groupByOf, presetRange, spendQuery, stackRows } from "../src/features/spend/spend";

const NOW = new Date("2026-11-27T09:30:00.000Z");
const q = (text: string, orgView = true) => Object.fromEntries(spendQuery(new URLSearchParams(text), NOW, orgView));

describe("date presets → the spend API's range", () => {
  it("runs month to date by default, leaving the end to the API (now)", () => {
    expect(presetRange("mtd", NOW)).toEqual({ start: "2026-11-01" });
    expect(q("")).toEqual({ start: "2026-11-01", granularity: "day", metric: "billed_cost" });
  });
  it("counts today in the last N days", () => {
    expect(presetRange("last-7", NOW)).toEqual({ start: "2026-11-21" });
    expect(presetRange("last-30", NOW)).toEqual({ start: "2026-10-29" });
    expect(presetRange("last-90", NOW)).toEqual({ start: "2026-08-30" });
  });
  it("gives last month with an exclusive end, across a year boundary too", () => {
    expect(presetRange("last-month", NOW)).toEqual({ start: "2026-10-01", end: "2026-11-01" });
    expect(presetRange("last-month", new Date("2027-01-05T00:00:00Z"))).toEqual({ start: "2026-12-01", end: "2027-01-01" });
    expect(presetRange("ytd", NOW)).toEqual({ start: "2026-01-01" });
  });
  it("turns a custom range's inclusive last day into the API's exclusive end (month ends included)", () => {
    expect(q("preset=custom&start=2026-10-15&end=2026-10-31")).toMatchObject({ start: "2026-10-15", end: "2026-11-01" });
    expect(presetRange("custom", NOW, { start: "2024-02-01", end: "2024-02-29" })).toEqual({ start: "2024-02-01", end: "2024-03-01" });
    // Garbage falls back to the month's start, and no end.
    expect(presetRange("custom", NOW, { start: "nope", end: "2026-13-45" })).toEqual({ start: "2026-11-01" });
  });
  it("passes granularity, metric, at most two group-bys and the filters; unknown values are dropped", () => {
    expect(q("granularity=month&metric=effective_cost&group_by=tenant,service_name,region&provider=aws,gcp&tag:team=ml&bogus=1")).toEqual({
      start: "2026-11-01",
      granularity: "month",
      metric: "effective_cost",
      group_by: "tenant,service_name",
      provider: "aws,gcp",
      "tag:team": "ml",
    });
    expect(q("granularity=week&metric=free")).toMatchObject({ granularity: "day", metric: "billed_cost" });
  });
  it("keeps tenant out of the tenant view, and repeated group-bys once", () => {
    const search = new URLSearchParams("group_by=tenant&group_by=model,model&tenant=t1");
    expect(groupByOf(search, false)).toEqual(["model"]);
    expect(groupByOf(search, true)).toEqual(["tenant", "model"]);
    expect(filtersOf(search, false)).toEqual([]);
    expect(filtersOf(new URLSearchParams("region=eu-west-1&region=us-east-1,eu-west-1"), false)).toEqual([["region", ["eu-west-1", "us-east-1"]]]);
  });
  it("exports the same range and filters without grouping", () => {
    expect(Object.fromEntries(exportQuery(new URLSearchParams("preset=last-month&group_by=model&model=gpt"), NOW, false))).toEqual({
      start: "2026-10-01",
      end: "2026-11-01",
      model: "gpt",
    });
  });
});

const row = (day: string, group: Record<string, string | null>, cost: string, currency = "USD"): SpendRow => ({
  period_start: `${day}T00:00:00.000Z`,
  period_end: `${day}T23:59:59.999Z`,
  group,
  currency,
  cost,
});

describe("stacking rows for the chart", () => {
  it("stacks by the first group-by, largest series first, the rest in Other, other currencies left out", () => {
    const rows = [
      row("2026-11-01", { s: "a", r: "x" }, "1"),
      row("2026-11-01", { s: "a", r: "y" }, "2"),
      row("2026-11-01", { s: "b", r: "x" }, "10"),
      row("2026-11-02", { s: "c", r: "x" }, "0.5"),
      row("2026-11-02", { s: null, r: "x" }, "0.25"),
      row("2026-11-02", { s: "a", r: "x" }, "99", "EUR"),
    ];
    const { keys, periods } = stackRows(rows, "s", "USD", undefined, 3);
    expect(keys).toEqual(["b", "a", "Other"]);
    expect(periods).toEqual([
      { period_start: "2026-11-01T00:00:00.000Z", total: 13, values: { a: 3, b: 10 } },
      { period_start: "2026-11-02T00:00:00.000Z", total: 0.75, values: { Other: 0.75 } },
    ]);
    expect(stackRows(rows, undefined, "USD").keys).toEqual(["Total"]);
  });
});

describe("exact decimals and the forecast chart", () => {
  it("sums decimal strings exactly where floats would not", () => {
    expect(sumDecimals(["0.1", "0.2"])).toBe("0.3");
    expect(sumDecimals(["12345678901234567.0000000001", "-0.0000000001"])).toBe("12345678901234567");
    expect(scaleDecimal("10", 1, 3)).toBe("3.3333333333");
    expect(scaleDecimal("-10", 2, 3)).toBe("-6.6666666667");
  });
  it("runs the API's forecast days into totals: spent up to data_through, then the forecast between its interval's ends", () => {
    const points = forecastCurve(
      [
        { day: "2026-12-26", actual: "400", expected: null, expected_low: null, expected_high: null },
        { day: "2026-12-27", actual: "400", expected: null, expected_low: null, expected_high: null },
        { day: "2026-12-28", actual: null, expected: "250", expected_low: "130", expected_high: "370" },
        { day: "2026-12-29", actual: null, expected: "250", expected_low: "130", expected_high: "370" },
      ],
      "2026-12-27",
    );
    // Spent 400, 800; then the forecast 800 + 250 = 1,050 (low 800 + 130 = 930, high 800 + 370 = 1,170), and 1,300 (1,060 to 1,540).
    expect(points.map((p) => [p.day, p.spent, p.mid, p.low, p.high, p.expected])).toEqual([
      ["2026-12-26", 400, 400, 400, 400, false],
      ["2026-12-27", 800, 800, 800, 800, false],
      ["2026-12-28", null, 1050, 930, 1170, true],
      ["2026-12-29", null, 1300, 1060, 1540, true],
    ]);
    // Today with data and its remainder expected: spent counts it, the forecast adds the remainder.
    expect(forecastCurve([{ day: "2026-11-20", actual: "60", expected: "180", expected_low: "180", expected_high: "180" }], "2026-11-20")[0]).toEqual({
      day: "2026-11-20",
      spent: 60,
      mid: 240,
      low: 240,
      high: 240,
      expected: true,
    });
  });
});
