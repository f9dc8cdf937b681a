import Decimal from "decimal.js";
import { compare, divide, fromNumber, parse, plus, round, shift, times, toNumber, toText, unitsAt, ZERO, type Scaled } from "../src";

/** The reference: decimal.js with room for every digit. */
const D = Decimal.clone({ precision: 200 });
const text = (value: Scaled) => toText(value);

describe("reading decimals", () => {
  test("JSON numbers as the decimals they print as, exponent forms included", () => {
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
    for (const [value, printed] of cases) {
      expect(text(fromNumber(value))).toBe(printed);
      expect(text(fromNumber(value))).toBe(new Decimal(String(value)).toFixed());
    }
    expect(fromNumber(0.15)).toEqual({ unscaled: 15n, scale: 2 });
    expect(fromNumber(1.5e-7)).toEqual({ unscaled: 15n, scale: 8 });
    expect(fromNumber(1e21)).toEqual({ unscaled: 10n ** 21n, scale: 0 });
  });

  test("text with a sign, a fraction and an exponent; anything else is refused", () => {
    expect(parse("0.150000000000")).toEqual({ unscaled: 150000000000n, scale: 12 });
    expect(text(parse("-12.50"))).toBe("-12.5");
    expect(text(parse("+3"))).toBe("3");
    expect(text(parse("1.5E+3"))).toBe("1500");
    expect(text(parse("25e-1"))).toBe("2.5");
    for (const bad of ["", "-", "1.", ".5", "1e", "abc", "1,5", " 1", "NaN", "Infinity", "0x10"]) expect(() => parse(bad)).toThrow(RangeError);
    expect(() => fromNumber(Number.NaN)).toThrow(RangeError);
    expect(() => fromNumber(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("arithmetic", () => {
  test("adds, multiplies and shifts exactly", () => {
    expect(text(plus(fromNumber(0.1), fromNumber(0.2)))).toBe("0.3");
    expect(text(times(fromNumber(0.1), fromNumber(3)))).toBe("0.3");
    expect(text(plus(ZERO, parse("-1.25")))).toBe("-1.25");
    expect(text(shift(times(fromNumber(1_234_567), parse("0.15")), 6))).toBe("0.18518505");
    expect(toNumber(round(times(fromNumber(1e21), parse("0.000000000001")), 10))).toBe(1e9);
  });

  test("rounds half away from zero to at most the places asked", () => {
    const r = (value: string) => text(round(parse(value), 10));
    expect(r("0.00000000005")).toBe("0.0000000001");
    expect(r("0.000000000049999")).toBe("0");
    expect(r("-0.00000000005")).toBe("-0.0000000001");
    expect(r("-0.000000000049")).toBe("0");
    expect(round(parse("1.5"), 10)).toEqual({ unscaled: 15n, scale: 1 });
  });

  test("divides by an integer, rounded half away from zero", () => {
    expect(text(divide(parse("10"), 3n, 10))).toBe("3.3333333333");
    expect(text(divide(parse("-20"), 3n, 10))).toBe("-6.6666666667");
    expect(text(divide(parse("1.23456789012345"), 1n, 10))).toBe("1.2345678901");
    expect(text(divide(parse("7"), -2n, 0))).toBe("-4");
    expect(() => divide(parse("1"), 0n, 2)).toThrow(RangeError);
  });

  test("units at a scale, and comparison", () => {
    expect(unitsAt(parse("1.5"), 10)).toBe(15_000_000_000n);
    expect(unitsAt(parse("-0.00000000005"), 10)).toBe(-1n);
    expect(compare(parse("0.10"), parse("0.1"))).toBe(0);
    expect(compare(parse("-1"), parse("0.5"))).toBe(-1);
    expect(compare(parse("2"), parse("1.99999999999"))).toBe(1);
  });

  test("text and numbers out", () => {
    expect(text({ unscaled: 250n, scale: 2 })).toBe("2.5");
    expect(text({ unscaled: 0n, scale: 5 })).toBe("0");
    expect(text({ unscaled: -5n, scale: 3 })).toBe("-0.005");
    expect(text({ unscaled: -1000n, scale: 3 })).toBe("-1");
    expect(toNumber(parse("0.3"))).toBe(0.3);
    expect(toNumber(parse("-2.5e-3"))).toBe(-0.0025);
  });
});

describe("against decimal.js", () => {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const number = () => {
    const pick = random();
    const sign = random() < 0.2 ? -1 : 1;
    if (pick < 0.3) return sign * Math.floor(random() * 1e7);
    if (pick < 0.6) return sign * Number((random() * 100).toFixed(Math.floor(random() * 12)));
    if (pick < 0.8) return sign * random() * 10 ** Math.floor(random() * 30 - 15);
    return (sign * Math.floor(random() * 1e6)) / 7;
  };

  test("sums of products, shifted and rounded to 10 places, on 20,000 generated pairs", () => {
    for (let i = 0; i < 20_000; i++) {
      const [a, b, c, d] = [number(), number(), number(), number()];
      const n = random() < 0.5 ? 6 : 0;
      const mine = round(shift(plus(times(fromNumber(a), fromNumber(b)), times(fromNumber(c), fromNumber(d))), n), 10);
      const reference = new D(String(a))
        .times(String(b))
        .plus(new D(String(c)).times(String(d)))
        .dividedBy(10 ** n)
        .toDecimalPlaces(10, D.ROUND_HALF_UP);
      expect(text(mine)).toBe(reference.toFixed());
      expect(toNumber(mine)).toBe(reference.toNumber() + 0); // no negative zero here: -0 + 0 is 0
    }
  });

  test("divisions by integers on 5,000 generated pairs", () => {
    for (let i = 0; i < 5_000; i++) {
      const a = number();
      const divisor = Math.floor(random() * 1e9) + 1;
      expect(text(divide(fromNumber(a), BigInt(divisor), 10))).toBe(new D(String(a)).dividedBy(divisor).toDecimalPlaces(10, D.ROUND_HALF_UP).toFixed());
    }
  });
});
