// Recurring charges in the forecast without a database (docs/api.md, "Spend forecast"): a charge
// shorter than a day (zero length included) is counted once, where it was billed, and never
// repeated; the repetitions of the others are counted by arithmetic, so the forecast costs the same
// whatever the line says. Expected values are worked out in the comments; a step-by-step count is
// the reference the arithmetic is held to for charges of a day or more.
import { Decimal } from "@cloudcost/decimal";
import fc from "fast-check";
import { periodBounds } from "../src/spend/forecast/periods";
import { computeForecast, type RecurringCharge } from "../src/spend/forecast/rules";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const days = (entries: [string, number | string, (number | string)?][]) =>
  new Map(entries.map(([day, usage, other = 0]) => [day, { usage: new Decimal(usage), other: new Decimal(other) }]));
/** Every day from `from` (inclusive) to `to` (exclusive), as YYYY-MM-DD. */
const span = (from: string, to: string) => {
  const out: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms < Date.parse(`${to}T00:00:00Z`); ms += DAY) out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
};
const charge = (start: string, end: string, amount: string): RecurringCharge => ({ start: at(start), end: at(end), amount: new Decimal(amount) });
const december = periodBounds("monthly", at("2026-12-01T00:00:00.000Z"));
const feeDays = (rows: { day: string; expected: Decimal | null }[], fee: string) => rows.filter((row) => row.expected?.toFixed() === fee).map((row) => row.day);

describe("a Recurring charge shorter than a day is counted once and never repeated", () => {
  // Usage 1,000/day from Nov 25 to Dec 2; now Dec 2, 12:00. Without recurring charges to come the
  // forecast is spent + 29 days (Dec 3-31) x 1,000 (the mean of the last 7 complete days).
  const usage = span("2026-11-25", "2026-12-03").map((day): [string, number] => [day, 1000]);

  it("a 1-hour charge billed Dec 2: 2,005 spent, nothing recurring to come (stepping it forward counted 696 more hours, 3,480)", () => {
    const series = days([...usage.filter(([day]) => day !== "2026-12-02"), ["2026-12-02", 1000, 5]]);
    const result = computeForecast({
      period: december,
      now: at("2026-12-02T12:00:00Z"),
      days: series,
      recurring: [charge("2026-12-02T10:00:00Z", "2026-12-02T11:00:00Z", "5")],
    });
    // Spent: Dec 1 1,000 + Dec 2 1,000 + 5; to come: 29 x 1,000.
    expect(result.spent.toFixed()).toBe("2005");
    expect(result.recurringRemaining.toFixed()).toBe("0");
    expect(result.usageRemaining.toFixed()).toBe("29000");
    expect(result.forecast?.toFixed()).toBe("31005");
    // Dec 3-31 at 1,000 each; today (Dec 2) already spent its 1,000 of usage: 1,000 - 1,000 = 0 more.
    expect(result.rows.filter((row) => row.expected !== null && row.day > "2026-12-02").every((row) => row.expected?.toFixed() === "1000")).toBe(true);
    expect(result.rows.find((row) => row.day === "2026-12-02")?.expected?.toFixed()).toBe("0");
  });

  it("a charge of a day less 1 ms is not repeated either", () => {
    const result = computeForecast({
      period: december,
      now: at("2026-12-02T12:00:00Z"),
      days: days([...usage.filter(([day]) => day !== "2026-12-02"), ["2026-12-02", 1000, 7]]),
      recurring: [charge("2026-12-02T00:00:00.000Z", "2026-12-02T23:59:59.999Z", "7")],
    });
    expect(result.recurringRemaining.toFixed()).toBe("0");
    expect(result.forecast?.toFixed()).toBe(String(2007 + 29000));
  });

  // Before: stepping forward by the charge's length never ended (zero) or took billions of steps (1 ms).
  it.each([
    ["zero length", "2026-12-03T12:00:00.000Z"],
    ["1 ms", "2026-12-03T12:00:00.001Z"],
  ])(
    "a %s charge billed tomorrow 12:00 is spent once: 2,500 spent, forecast 31,500",
    (_name, end) => {
      const result = computeForecast({
        period: december,
        now: at("2026-12-02T12:00:00Z"),
        days: days([...usage, ["2026-12-03", 0, 500]]),
        recurring: [charge("2026-12-03T12:00:00.000Z", end, "500")],
      });
      // Spent: Dec 1-2 usage 2,000 + the 500 charge (its day is in the period); Dec 3-31: 29 x 1,000 of usage, no fee.
      expect(result.spent.toFixed()).toBe("2500");
      expect(result.recurringRemaining.toFixed()).toBe("0");
      expect(result.usageRemaining.toFixed()).toBe("29000");
      expect(result.forecast?.toFixed()).toBe("31500");
      expect(result.rows.find((row) => row.day === "2026-12-03")?.expected?.toFixed()).toBe("1000");
    },
    10_000,
  );
});

describe("repetitions of a charge of a day or more are counted by arithmetic", () => {
  it("a daily 0.01 fee billed Jan 1 counts 364 times in the annual forecast (Jan 2 to Dec 31), one per day", () => {
    const year = periodBounds("annual", at("2026-01-02T00:00:00Z"));
    const series = days([...span("2025-12-20", "2026-01-01").map((day): [string, number] => [day, 0]), ["2026-01-01", 0, "0.01"]]);
    const result = computeForecast({
      period: year,
      now: at("2026-01-02T08:00:00Z"),
      days: series,
      recurring: [charge("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "0.01")],
    });
    expect(result.recurringRemaining.toFixed()).toBe("3.64");
    expect(result.forecast?.toFixed()).toBe("3.65"); // + the Jan 1 fee, spent
    const withFee = feeDays(result.rows, "0.01");
    expect(withFee).toHaveLength(364);
    expect([withFee[0], withFee.at(-1)]).toEqual(["2026-01-02", "2026-12-31"]);
  });

  it("a 25-hour charge drifts an hour a day: 29 repetitions in December, none starting on Dec 25", () => {
    // Billed Dec 1 00:00; repetition n starts n x 25 h later: n = 1..23 on Dec 2..24, n = 24 at 600 h = Dec 26 00:00,
    // n = 29 at 725 h = Dec 31 05:00; n = 30 (750 h) is after Dec 31 24:00 (744 h). 29 x 1.1 = 31.9.
    const series = days([...span("2026-11-25", "2026-12-01").map((day): [string, number] => [day, 0]), ["2026-12-01", 0, "1.1"]]);
    const result = computeForecast({
      period: december,
      now: at("2026-12-02T06:00:00Z"),
      days: series,
      recurring: [charge("2026-12-01T00:00:00Z", "2026-12-02T01:00:00Z", "1.1")],
    });
    expect(result.recurringRemaining.toFixed()).toBe("31.9");
    expect(feeDays(result.rows, "1.1")).toEqual([...span("2026-12-02", "2026-12-25"), ...span("2026-12-26", "2027-01-01")]);
    expect(result.rows.find((row) => row.day === "2026-12-25")?.expected?.toFixed()).toBe("0");
  });

  it("calendar months follow the calendar: a February fee billed ahead repeats Mar to Dec (10), one billed Jan 1 Feb to Dec (11)", () => {
    const year = periodBounds("annual", at("2026-01-10T00:00:00Z"));
    const series = days(span("2026-01-01", "2026-01-10").map((day): [string, number] => [day, 0]));
    const result = computeForecast({
      period: year,
      now: at("2026-01-10T12:00:00Z"),
      days: series,
      recurring: [charge("2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", "99.99"), charge("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "0.03")],
    });
    // 10 x 99.99 + 11 x 0.03 = 999.9 + 0.33
    expect(result.recurringRemaining.toFixed()).toBe("1000.23");
    expect(result.rows.find((row) => row.day === "2026-02-01")?.expected?.toFixed()).toBe("0.03");
    expect(result.rows.find((row) => row.day === "2026-03-01")?.expected?.toFixed()).toBe("100.02");
    expect(result.rows.find((row) => row.day === "2026-12-01")?.expected?.toFixed()).toBe("100.02");
  });

  it("matches a step-by-step count for any charge of a day or more (fixed length or calendar month)", () => {
    const periodStart = december.start.getTime();
    const periodEnd = december.end.getTime();
    const fixed = fc.record({
      start: fc.integer({ min: periodStart - 120 * DAY, max: periodEnd + 5 * DAY }),
      length: fc.integer({ min: DAY, max: 100 * DAY }),
    });
    const monthly = fc
      .integer({ min: -4, max: 1 })
      .map((m) => ({ start: Date.UTC(2026, 11 + m, 1), length: Date.UTC(2026, 12 + m, 1) - Date.UTC(2026, 11 + m, 1) }));
    fc.assert(
      fc.property(
        fc.array(fc.record({ shape: fc.oneof(fixed, monthly), cents: fc.integer({ min: -100_000, max: 100_000 }) }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 25 }),
        (charges, lastOffset) => {
          // Data every day from Nov 20 to the last day with data (Dec 1 + lastOffset); now the day after it.
          const lastDay = periodStart + lastOffset * DAY;
          const series = days(span("2026-11-20", new Date(lastDay + DAY).toISOString().slice(0, 10)).map((day): [string, number] => [day, 0]));
          const recurring = charges.map(({ shape, cents }) => ({
            start: new Date(shape.start),
            end: new Date(shape.start + shape.length),
            amount: new Decimal(cents).div(100),
          }));
          const result = computeForecast({ period: december, now: new Date(lastDay + DAY + HOUR), days: series, recurring });
          // The reference: step through each charge's repetitions (bounded here: at least a day each).
          const byDay = new Map<string, Decimal>();
          let total = new Decimal(0);
          for (const c of recurring) {
            const next = (n: number) =>
              c.end.getTime() - c.start.getTime() === Date.UTC(c.start.getUTCFullYear(), c.start.getUTCMonth() + 1, 1) - c.start.getTime() &&
              c.start.getTime() === Date.UTC(c.start.getUTCFullYear(), c.start.getUTCMonth(), 1)
                ? Date.UTC(c.start.getUTCFullYear(), c.start.getUTCMonth() + n, 1)
                : c.start.getTime() + n * (c.end.getTime() - c.start.getTime());
            if (next(1) <= lastDay) continue;
            for (let n = 1; next(n) < periodEnd; n++) {
              if (next(n) < lastDay + DAY) continue;
              const day = new Date(next(n)).toISOString().slice(0, 10);
              byDay.set(day, (byDay.get(day) ?? new Decimal(0)).plus(c.amount));
              total = total.plus(c.amount);
            }
          }
          expect(result.recurringRemaining.toFixed()).toBe(total.toFixed());
          for (const row of result.rows)
            if (row.expected !== null) expect([row.day, row.expected.toFixed()]).toEqual([row.day, (byDay.get(row.day) ?? new Decimal(0)).toFixed()]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
