// How a dimension's version gives a line its value (first match wins, value_from, the default) and
// how a day's split rules share a value's cost (docs/api.md, "Dimensions"), with the arithmetic
// written out. Pure functions: no database.
import type { DimensionRule, SplitRule } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { compileAssignment, type FieldReader } from "../src/dimensions/assign";
import { splitAmount, splitDay } from "../src/dimensions/split";

const line =
  (fields: Record<string, string | null>): FieldReader =>
  (field) =>
    fields[field] ?? null;

describe("assignment", () => {
  const rules: DimensionRule[] = [
    { value: "platform", match: { field: "tag:team", op: "eq", value: "Platform", case: "insensitive" } },
    { value_from: "tag:team", match: { field: "service_name", op: "prefix", value: "Amazon" } },
    {
      value: "data",
      match: {
        any: [
          { field: "service_name", op: "in", values: ["BigQuery", "Athena"] },
          { field: "resource_name", op: "regex", value: "^etl-\\d+$" },
        ],
      },
    },
    { value: "not-eu", match: { all: [{ field: "region", op: "present" }, { not: { field: "region", op: "prefix", value: "eu-" } }] } },
    { value: "untagged", match: { field: "tag:team", op: "absent" } },
  ];
  const assign = compileAssignment({ rules, default_value: "shared" });

  it.each([
    ["the first rule, case-insensitive", { "tag:team": "PLATFORM", service_name: "Amazon EC2" }, { value: "platform", rule: 0 }],
    ["value_from takes the line's own tag", { "tag:team": "web", service_name: "Amazon S3" }, { value: "web", rule: 1 }],
    ["value_from without the tag does not match: the next rule that does", { service_name: "Amazon S3", region: "us-east-1" }, { value: "not-eu", rule: 3 }],
    ["in", { "tag:team": "x", service_name: "Athena" }, { value: "data", rule: 2 }],
    ["regex (RE2)", { "tag:team": "x", resource_name: "etl-42" }, { value: "data", rule: 2 }],
    ["regex does not match a longer name", { "tag:team": "x", resource_name: "etl-42b", region: "eu-west-1" }, { value: "shared", rule: null }],
    ["absent (an empty tag is none)", { "tag:team": "", region: "eu-west-1" }, { value: "untagged", rule: 4 }],
    ["no rule: the default", { "tag:team": "x", region: "eu-central-1" }, { value: "shared", rule: null }],
  ])("%s", (_name, fields, expected) => {
    expect(assign(line(fields))).toEqual(expected);
  });

  it("leaves a line unallocated (null) without a default, and reads another dimension's value through the reader", () => {
    const byOwner = compileAssignment({ rules: [{ value: "mine", match: { field: "dimension:owner", op: "eq", value: "platform" } }], default_value: null });
    expect(byOwner(line({ "dimension:owner": "platform" }))).toEqual({ value: "mine", rule: 0 });
    expect(byOwner(line({ "dimension:owner": "web" }))).toEqual({ value: null, rule: null });
  });

  it("runs a pattern that backtracking engines take exponential time over in linear time", () => {
    const evil = compileAssignment({ rules: [{ value: "x", match: { field: "resource_name", op: "regex", value: "^(a+)+$" } }], default_value: null });
    // JavaScript's RegExp takes seconds to minutes on this text; RE2 answers at once (the test's timeout is the bound).
    expect(evil(line({ resource_name: `${"a".repeat(50_000)}!` }))).toEqual({ value: null, rule: null });
  });
});

const d = (text: string) => new Decimal(text);
const texts = (pieces: [string, Decimal][]) => pieces.map(([target, piece]) => [target, piece.toFixed()]);

describe("splitAmount", () => {
  it("truncates every piece but the largest share's at 10 places; the largest takes the rest, so they sum to the amount", () => {
    // Shares 1 : 2 : 1 (total 4) of 10.0000000001: a = 10.0000000001 x 1/4 = 2.500000000025 -> 2.5000000000;
    // c the same; b = 10.0000000001 - 2.5 - 2.5 = 5.0000000001.
    expect(
      texts(
        splitAmount(d("10.0000000001"), [
          ["a", d(1)],
          ["b", d(2)],
          ["c", d(1)],
        ]),
      ),
    ).toEqual([
      ["a", "2.5"],
      ["b", "5.0000000001"],
      ["c", "2.5"],
    ]);
    // 100 in thirds: a (the first of the equal largest) takes 100 - 2 x 33.3333333333 = 33.3333333334.
    expect(
      texts(
        splitAmount(d(100), [
          ["a", d(1)],
          ["b", d(1)],
          ["c", d(1)],
        ]),
      ),
    ).toEqual([
      ["a", "33.3333333334"],
      ["b", "33.3333333333"],
      ["c", "33.3333333333"],
    ]);
    // A credit (negative) truncates toward zero the same way: -1 in thirds: -0.3333333333 twice, -0.3333333334 to the first.
    expect(
      texts(
        splitAmount(d(-1), [
          ["a", d(1)],
          ["b", d(1)],
          ["c", d(1)],
        ]),
      ),
    ).toEqual([
      ["a", "-0.3333333334"],
      ["b", "-0.3333333333"],
      ["c", "-0.3333333333"],
    ]);
  });
});

describe("splitDay", () => {
  const direct = new Map<string | null, Decimal>([
    ["platform", d(90)],
    ["web", d(300)],
    ["data", d(100)],
    ["idle", d(0)],
    [null, d(30)],
  ]);
  const split = (s: Omit<SplitRule, "id">, id: string): SplitRule => ({ id, ...s });

  it("shares a source proportionally among every other value with cost ('*'), and the unallocated rest by fixed percentages", () => {
    const result = splitDay(direct, [
      split({ source: "platform", targets: "*", method: "proportional" }, "spl_1"),
      split({ source: null, targets: ["web", "data"], method: "fixed", percentages: { web: "75", data: "25" } }, "spl_2"),
    ]);
    // '*': web and data (idle has no cost, platform and the unallocated rest are sources): 90 x 300/400 = 67.5, 90 x 100/400 = 22.5.
    // Unallocated 30: web 30 x 75 % = 22.5, data 30 x 25 % = 7.5.
    expect(Object.fromEntries([...result.sharedIn].map(([v, a]) => [v, a.toFixed()]))).toEqual({ web: "90", data: "30" });
    expect([...result.sharedOut].map(([v, a]) => [v, a.toFixed()])).toEqual([
      ["platform", "90"],
      [null, "30"],
    ]);
    // The invariant: direct 520 = (direct - out + in) summed over every value: 0 + 390 + 130 + 0 + 0.
    const after = [...direct].reduce(
      (sum, [value, cost]) =>
        sum
          .plus(cost)
          .minus(result.sharedOut.get(value) ?? 0)
          .plus(value === null ? 0 : (result.sharedIn.get(value) ?? 0)),
      d(0),
    );
    expect(after.toFixed()).toBe("520");
  });

  it("splits evenly, by a metric's labelled amounts, and evenly again on a day whose shares are all 0", () => {
    const even = splitDay(direct, [split({ source: "platform", targets: ["web", "data", "idle"], method: "even" }, "spl_e")]);
    expect(Object.fromEntries([...even.sharedIn].map(([v, a]) => [v, a.toFixed()]))).toEqual({ web: "30", data: "30", idle: "30" });
    const orders = new Map([
      ["web", d(3)],
      ["data", d(1)],
    ]);
    const metric = splitDay(
      direct,
      [split({ source: "platform", targets: ["web", "data"], method: "metric", metric: "orders" }, "spl_m")],
      (_m, v) => orders.get(v) ?? d(0),
    );
    // 90 x 3/4 = 67.5, 90 x 1/4 = 22.5.
    expect(Object.fromEntries([...metric.sharedIn].map(([v, a]) => [v, a.toFixed()]))).toEqual({ web: "67.5", data: "22.5" });
    const zero = splitDay(direct, [split({ source: "platform", targets: ["idle"], method: "proportional" }, "spl_z")]);
    expect(Object.fromEntries([...zero.sharedIn].map(([v, a]) => [v, a.toFixed()]))).toEqual({ idle: "90" });
  });
});
