// Anomaly scoring without a database, on series computed by hand: the median of the same weekday of
// the 4 weeks before (with 28 days of history) or of the 14 days before, a new service's baseline 0,
// the MAD scaled by 1.4826, a score above 3 and both floors (10 and 30 % by default); consecutive days as runs.
import { Decimal } from "@cloudcost/decimal";
import { consecutiveRuns, detectAnomalies, median, monthlyExpected, sameDayMonthsBefore, scoreDay, type DayCost } from "../src/anomalies/scoring";

const floors = { minUsd: 10, minPercent: 30 };
/** Days from 2026-10-01 with the given costs. */
function series(costs: Decimal.Value[]): DayCost[] {
  return costs.map((cost, i) => ({ day: new Date(Date.UTC(2026, 9, 1 + i)).toISOString().slice(0, 10), cost }));
}
const flat = (value: number, days = 14) => Array.from({ length: days }, () => value);

describe("median", () => {
  it("odd and even counts", () => {
    expect(median([3, 1, 2].map((v) => new Decimal(v))).toString()).toBe("2");
    expect(median([4, 1, 3, 2].map((v) => new Decimal(v))).toString()).toBe("2.5");
  });
});

describe("scoring", () => {
  it("a flat series has no anomaly", () => {
    expect(detectAnomalies(series(flat(100, 30)), floors)).toEqual([]);
  });

  it("one spike on a flat series: expected 100, impact 50, MAD 0 floored at 0.01 -> score 5000", () => {
    const found = detectAnomalies(series([...flat(100), 150, 100, 100]), floors);
    expect(found.map((a) => [a.day, a.cost.toString(), a.expected.toString(), a.impact.toString(), a.score.toString()])).toEqual([
      ["2026-10-15", "150", "100", "50", "5000"],
    ]);
  });

  it("weekly seasonality: weekends stay quiet, a weekday spike stands out", () => {
    // History: 100,104,98,102,96,20,22,101,99,103,97,105,21,19 (weekends at ~20).
    // Sorted: 19 20 21 22 96 97 98 99 100 101 102 103 104 105 -> median (98 + 99) / 2 = 98.5.
    // |x - 98.5| sorted: 0.5 0.5 1.5 1.5 2.5 2.5 3.5 4.5 5.5 6.5 76.5 77.5 78.5 79.5 -> MAD (3.5 + 4.5) / 2 = 4.
    // Scaled MAD 4 x 1.4826 = 5.9304.
    const history = [100, 104, 98, 102, 96, 20, 22, 101, 99, 103, 97, 105, 21, 19];
    const spike = scoreDay("d", 140, history, floors);
    // impact 41.5 > 10 and > 29.55 (30 % of 98.5); score 41.5 / 5.9304 = 6.99784... -> 6.9978.
    expect([spike.expected.toString(), spike.impact.toString(), spike.score.toString(), spike.anomaly]).toEqual(["98.5", "41.5", "6.9978", true]);
    // A weekend day of 21 and a usual weekday of 104 are no anomaly.
    expect(scoreDay("d", 21, history, floors).anomaly).toBe(false);
    expect(scoreDay("d", 104, history, floors).anomaly).toBe(false);
    // 125: impact 26.5 > 10 but under 29.55 (30 %): not an anomaly although its score is 26.5 / 5.9304 = 4.46850... -> 4.4685.
    const under = scoreDay("d", 125, history, floors);
    expect([under.score.toString(), under.anomaly]).toEqual(["4.4685", false]);
    // Over a series: 14 days of history then the spike is found, and nothing else.
    expect(detectAnomalies(series([...history, 140]), floors).map((a) => a.day)).toEqual(["2026-10-15"]);
  });

  it("a spike under the USD floor: 5 -> 14 is +180 % but only 9 USD", () => {
    const scored = scoreDay("d", 14, flat(5), floors);
    expect([scored.impact.toString(), scored.anomaly]).toEqual(["9", false]);
    // 15.01 is 10.01 over: an anomaly.
    expect(scoreDay("d", "15.01", flat(5), floors).anomaly).toBe(true);
    // Exactly 10 over is not "more than" 10.
    expect(scoreDay("d", 15, flat(5), floors).anomaly).toBe(false);
  });

  it("a spike under the percent floor: 1000 -> 1250 is 250 USD but only 25 %", () => {
    const scored = scoreDay("d", 1250, flat(1000), floors);
    expect([scored.impact.toString(), scored.score.toString(), scored.anomaly]).toEqual(["250", "25000", false]);
    expect(scoreDay("d", 1300, flat(1000), floors).anomaly).toBe(false); // exactly 30 %
    expect(scoreDay("d", "1300.01", flat(1000), floors).anomaly).toBe(true);
  });

  it("a spike within the usual noise: both floors passed but score 100 / 74.13 = 1.3490 <= 3", () => {
    // 50,150 alternating: median 100, every deviation 50 -> MAD 50, scaled 74.13.
    const history = Array.from({ length: 14 }, (_, i) => (i % 2 ? 150 : 50));
    const scored = scoreDay("d", 200, history, floors);
    expect([scored.expected.toString(), scored.score.toString(), scored.anomaly]).toEqual(["100", "1.349", false]);
  });

  it("organization floors change the decision", () => {
    expect(scoreDay("d", 14, flat(5), { minUsd: 5, minPercent: 30 }).anomaly).toBe(true);
    expect(scoreDay("d", 1250, flat(1000), { minUsd: 10, minPercent: 20 }).anomaly).toBe(true);
  });

  it("no day is scored without 14 days before it", () => {
    expect(detectAnomalies(series([...flat(100, 13), 1000]), floors)).toEqual([]);
  });

  it("with 28 days of history, the same weekday of the 4 weeks before: a weekly job is expected, the same job on another day is not", () => {
    // 100 a day, 600 every 7th day (from day 0), for 6 weeks.
    const costs = Array.from({ length: 42 }, (_, i) => (i % 7 === 0 ? 600 : 100));
    const found = detectAnomalies(series(costs), floors, { kind: "total" });
    // Days 14 and 21 (14-day median 100) are spikes; from day 28 the weekday baseline expects 600.
    expect(found.map((a) => [a.day, a.expected.toString()])).toEqual([
      ["2026-10-15", "100"],
      ["2026-10-22", "100"],
    ]);
    // Day 45 (a Wednesday of the 7th week) at 600: its weekday baseline (days 17, 24, 31, 38) is 100.
    const wednesday = detectAnomalies(series([...costs, 100, 100, 100, 600]), floors, { kind: "total" });
    expect(wednesday.map((a) => [a.day, a.expected.toString(), a.impact.toString()]).at(-1)).toEqual(["2026-11-15", "100", "500"]);
  });

  it("a service without cost in its baseline is new once its tenant has 14 days of history, from its first day", () => {
    // Its first day, 20 days after the tenant's first: baseline 0, score 300 / 0.01; the next two days,
    // still above the floors within its first 14, are new too (one range).
    const found = detectAnomalies(series([300, 300, 300]), floors, { kind: "service", tenantFirstDay: "2026-09-11" });
    expect(found.map((a) => [a.day, a.reason, a.expected.toString(), a.score.toString()])).toEqual(
      ["2026-10-01", "2026-10-02", "2026-10-03"].map((day) => [day, "new_service", "0", "30000"]),
    );
    // Under the floor it is not; a tenant without 14 days of history has no new service; the total is never new.
    expect(detectAnomalies(series([9]), floors, { kind: "service", tenantFirstDay: "2026-09-11" })).toEqual([]);
    expect(detectAnomalies(series([300]), floors, { kind: "service", tenantFirstDay: "2026-09-20" })).toEqual([]);
    expect(detectAnomalies(series([300]), floors, { kind: "total", tenantFirstDay: "2026-09-11" })).toEqual([]);
  });

  it("days at most 2 normal days apart form runs (gap 0: consecutive days only)", () => {
    const days = ["2026-10-01", "2026-10-02", "2026-10-04", "2026-10-07", "2026-10-11", "2026-10-31", "2026-11-01"].map((day) => ({ day }));
    // Oct 4 is 1 normal day (Oct 3) after Oct 2, Oct 7 2 (Oct 5, 6) after Oct 4: one run; Oct 11 is 3 after Oct 7: a new one.
    expect(consecutiveRuns(days).map((run) => run.map((d) => d.day))).toEqual([
      ["2026-10-01", "2026-10-02", "2026-10-04", "2026-10-07"],
      ["2026-10-11"],
      ["2026-10-31", "2026-11-01"],
    ]);
    expect(consecutiveRuns(days, 0).map((run) => run.length)).toEqual([2, 1, 1, 1, 2]);
  });

  it("a new service's anomaly lasts while it stays above the floors in its first 14 days: a ramp from 200 to 5,000 a day", () => {
    // 200 + 400 k a day for k = 0..12 (200 to 5,000), then 5,000: each of its first 14 days is scored
    // against 0 (before, only its first day was: the next ones had cost in their history and fewer
    // than 14 days of it). Day 14 against the 14 days before: median (2,600 + 3,000) / 2 = 2,800,
    // impact 2,200, MAD 1,400 x 1.4826 = 2,075.64, score 1.06: not an anomaly.
    const ramp = [...Array.from({ length: 13 }, (_, k) => 200 + 400 * k), 5000, 5000];
    const found = detectAnomalies(series(ramp), floors, { kind: "service", tenantFirstDay: "2026-09-11" });
    expect(found.map((a) => a.reason)).toEqual(Array.from({ length: 14 }, () => "new_service"));
    expect(found.map((a) => a.impact.toNumber())).toEqual(ramp.slice(0, 14));
    // Impact summed over the range: (200 + 5,000) x 13 / 2 + 5,000 = 38,800.
    expect(found.reduce((sum, a) => sum.plus(a.impact), new Decimal(0)).toString()).toBe("38800");
    // A day under the floors ends the range: 300, then 5 (under 10), then 300 (not scored: too little history).
    expect(detectAnomalies(series([300, 5, 300]), floors, { kind: "service", tenantFirstDay: "2026-09-11" }).map((a) => a.day)).toEqual(["2026-10-01"]);
  });

  it("a job on the 1st of each month is expected once the 1st of each of the previous 2 months cost within 20 % of it", () => {
    // 50 a day from Jul 1, 1,050 on the 1st of Aug, Sep, Oct and Nov.
    const days: DayCost[] = [];
    for (let ms = Date.UTC(2026, 6, 1); ms < Date.UTC(2026, 11, 1); ms += 86_400_000) {
      const day = new Date(ms).toISOString().slice(0, 10);
      days.push({ day, cost: day.endsWith("-01") && day !== "2026-07-01" ? 1050 : 50 });
    }
    // Aug 1: no job before (Jul 1 cost 50). Sep 1: Aug 1 within 20 %, Jul 1 not. Oct 1 and Nov 1: both previous 1sts cost 1,050.
    expect(detectAnomalies(days, floors, { kind: "total" }).map((a) => a.day)).toEqual(["2026-08-01", "2026-09-01"]);
    // A job 30 % larger on Nov 1 (1,365 > 1.2 x 1,050 = 1,260) is an anomaly again.
    const larger = days.map((d) => (d.day === "2026-11-01" ? { ...d, cost: 1365 } : d));
    expect(detectAnomalies(larger, floors, { kind: "total" }).map((a) => a.day)).toEqual(["2026-08-01", "2026-09-01", "2026-11-01"]);
    // 1,260 is within (|1,260 - 1,050| = 210 = 20 % of 1,050); a month without the day has no such day.
    const costs = new Map([
      ["2026-10-01", new Decimal(1050)],
      ["2026-09-01", new Decimal(1050)],
    ]);
    expect(monthlyExpected("2026-11-01", new Decimal(1260), (d) => costs.get(d))).toBe(true);
    expect(monthlyExpected("2026-11-01", new Decimal("1260.01"), (d) => costs.get(d))).toBe(false);
    expect([sameDayMonthsBefore("2026-03-31", 1), sameDayMonthsBefore("2026-03-31", 2)]).toEqual([null, "2026-01-31"]);
  });
});
