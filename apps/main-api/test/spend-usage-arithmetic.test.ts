import { Decimal, fromNumber, plus, round, times, toText } from "@cloudcost/decimal";
import { lineCost } from "../src/spend/usage";

/**
 * The reference: decimal.js with room for every digit (its default of 20 significant digits, which
 * the ledger used before, cut costs of 10^10 and more short of their 10 places).
 */
const D = Decimal.clone({ precision: 200 });
function referenceCost(kind: "model" | "database", quantities: Record<string, number>, prices: Record<string, number>): string {
  let cost = new D(0);
  for (const [key, quantity] of Object.entries(quantities)) cost = cost.plus(new D(String(quantity)).times(new D(String(prices[key] ?? 0))));
  if (kind === "model") cost = cost.dividedBy(1_000_000);
  return cost.toDecimalPlaces(10, D.ROUND_HALF_UP).toFixed();
}

const line = (kind: "model" | "database", quantities: Record<string, number>) => ({ resource_id: "r", kind, timestamp: "2026-10-01T00:00:00Z", quantities });

describe("usage line arithmetic in BigInt", () => {
  test("numbers as the decimals they print as, exponent forms included", () => {
    const cases: [number, string][] = [
      [0, "0"],
      [-0, "0"],
      [2.5, "2.5"],
      [0.1, "0.1"],
      [1e-7, "0.0000001"],
      [-1.5e-7, "-0.00000015"],
      [1.5e21, "1500000000000000000000"],
      [2 ** 60, "1152921504606847000"],
      [123456.789, "123456.789"],
    ];
    for (const [value, text] of cases) {
      expect(toText(fromNumber(value))).toBe(text);
      expect(toText(fromNumber(value))).toBe(new Decimal(String(value)).toFixed());
    }
  });

  test("rounding half away from zero to 10 places", () => {
    const to10 = (text: string) => toText(round(fromNumber(Number(text)), 10));
    expect(to10("0.00000000005")).toBe("0.0000000001");
    expect(to10("0.000000000049")).toBe("0");
    expect(to10("-0.00000000005")).toBe("-0.0000000001");
    expect(toText(plus(fromNumber(0.1), fromNumber(0.2)))).toBe("0.3");
    expect(toText(times(fromNumber(0.1), fromNumber(3)))).toBe("0.3");
  });

  test("line costs equal the decimal.js reference on 20,000 generated lines", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const number = () => {
      const pick = random();
      if (pick < 0.3) return Math.floor(random() * 1e7);
      if (pick < 0.6) return Number((random() * 100).toFixed(Math.floor(random() * 12)));
      if (pick < 0.8) return random() * 10 ** Math.floor(random() * 30 - 15);
      return Math.floor(random() * 1e6) / 7;
    };
    for (let i = 0; i < 20_000; i++) {
      const kind = random() < 0.5 ? "model" : "database";
      const quantities = { a: number(), b: number() };
      const prices = { a: number(), b: number() };
      expect(lineCost(line(kind, quantities), prices)).toBe(referenceCost(kind, quantities, prices));
    }
  });
});
