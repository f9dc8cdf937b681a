import { centsText, Decimal, toCents } from "../src";

describe("decimal.js through @cloudcost/decimal", () => {
  test("cents are rounded half away from zero, from any value decimal.js reads", () => {
    const cases: [Decimal.Value, string][] = [
      ["0.005", "0.01"],
      ["-0.005", "-0.01"],
      ["0.00499999999999999999", "0"],
      ["1234567890123.455", "1234567890123.46"],
      [70.08, "70.08"],
      ["12.3", "12.3"],
    ];
    for (const [value, cents] of cases) expect({ value, cents: toCents(value).toFixed() }).toEqual({ value, cents });
  });

  test("a value of a more precise clone keeps its class (its precision in later arithmetic)", () => {
    const Exact = Decimal.clone({ precision: 100 });
    const rounded = toCents(new Exact("1").dividedBy(3).times(3));
    expect(rounded).toBeInstanceOf(Exact);
    expect(rounded.toFixed()).toBe("1");
    expect(rounded.dividedBy(7).toFixed().length).toBeGreaterThan(60);
  });

  test("cents as text always carry both places", () => {
    expect(["12.3", "-0.05", 0, "0.004", "-0.004"].map((v) => centsText(v))).toEqual(["12.30", "-0.05", "0.00", "0.00", "0.00"]);
  });
});
