import { boundedDecimal, boundedNumber, DecimalBoundError, UsageLine } from "../src/index.js";

describe("boundedDecimal", () => {
  test.each([
    ["0", "0"],
    ["-0", "0"],
    ["+1.50", "1.5"],
    ["007.000", "7"],
    [".5", "0.5"],
    ["5.", "5"],
    ["1e3", "1000"],
    ["1.25E-3", "0.00125"],
    ["-12.5e+2", "-1250"],
    ["1e-20", "0.00000000000000000001"],
    ["999999999999999999.9999", "999999999999999999.9999"],
    ["0.000e20", "0"],
  ])("%s reads as %s", (raw, expected) => {
    expect(boundedDecimal(raw)).toBe(expected);
  });

  test.each([
    ["1e20000000", /exponent beyond ±20/],
    ["1e21", /exponent beyond ±20/],
    ["1e-21", /exponent beyond ±20/],
    ["1e18", /out of range/],
    ["-1000000000000000000", /out of range/],
    ["9".repeat(29), /out of range/],
    ["1".repeat(41), /at most 40/],
    ["1e400", /exponent/],
    ["", /not a decimal/],
    [".", /not a decimal/],
    ["e5", /not a decimal/],
    ["1e", /not a decimal/],
    ["0x10", /not a decimal/],
    ["Infinity", /not a decimal/],
    ["1,5", /not a decimal/],
  ])("%s is refused", (raw, message) => {
    expect(() => boundedDecimal(raw)).toThrow(DecimalBoundError);
    expect(() => boundedDecimal(raw)).toThrow(message);
  });

  test("a cell of a million digits is refused on its length", () => {
    expect(() => boundedDecimal("9".repeat(1_000_000))).toThrow(/has 1000000 characters; a decimal has at most 40/);
  });
});

describe("boundedNumber", () => {
  const n = boundedNumber();
  test.each([0, -0, 1, 0.1, 1e-20, 1e17, 999999999999999900, -5])("%s passes", (value) => {
    expect(n.safeParse(value).success).toBe(true);
  });
  test.each([1e18, 1e308, -1e30, 1.2e29, 9.99e-21, 1e-300, 5e-324, Number.POSITIVE_INFINITY, Number.NaN])("%s is refused", (value) => {
    expect(n.safeParse(value).success).toBe(false);
  });

  test("a usage quantity past the bounds is refused naming where it is", () => {
    const parsed = UsageLine.safeParse({ resource_id: "r", kind: "model", timestamp: "2026-11-01T00:00:00Z", quantities: { input: 1e308 } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["quantities.input", expect.stringMatching(/out of range/)]]);
  });
});
