import { z } from "zod";
import {
  Currency,
  CustomerId,
  FREE_OBJECT_MAX_DEPTH,
  FreeObject,
  jsonDepth,
  NonNegativeMoney,
  PaginationQuery,
  ServiceId,
  Timestamp,
  TimestampOutput,
  queryArray,
  queryBoolean,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

describe("ids", () => {
  it("ServiceId accepts prefixed opaque ids up to 64 characters", () => {
    accept(ServiceId, "org_01JD8X3ZK2QH7V9W4M5N6P7R8S");
    accept(ServiceId, "a".repeat(64));
  });
  it.each(["", "a".repeat(65), "org 1", "org/1", "ünï", "a.b"])("ServiceId rejects %j", (id) => {
    reject(ServiceId, id);
  });
  it("CustomerId accepts any printable text up to 256 characters", () => {
    accept(CustomerId, "i-0abc123 / prod web #1 (eu)");
    accept(CustomerId, "x".repeat(256));
  });
  it.each(["", "x".repeat(257), "line\nbreak", "tab\tbed", "nul\u0000"])("CustomerId rejects %j", (id) => {
    reject(CustomerId, id);
  });
});

describe("timestamps", () => {
  it("normalises any RFC 3339 offset to UTC with milliseconds", () => {
    expect(accept(Timestamp, "2026-11-21T23:47:22+01:00")).toBe("2026-11-21T22:47:22.000Z");
    expect(accept(Timestamp, "2026-11-21T22:47:22.123Z")).toBe("2026-11-21T22:47:22.123Z");
    expect(accept(Timestamp, "2026-11-21T17:17:22.123456-05:30")).toBe("2026-11-21T22:47:22.123Z");
    expect(accept(Timestamp, "2024-02-29T23:59:59.999Z")).toBe("2024-02-29T23:59:59.999Z");
    expect(accept(Timestamp, "2026-11-21T22:47:22.12Z")).toBe("2026-11-21T22:47:22.120Z");
  });
  it.each(["2026-11-21", "2026-11-21 22:47:22Z", "2026-02-30T00:00:00Z", "2026-02-29T00:00:00.000Z", "2026-11-21T24:00:00.000Z", "yesterday", 1763765242123])(
    "rejects %j",
    (value) => {
      reject(Timestamp, value);
    },
  );
  it("TimestampOutput is UTC with milliseconds only", () => {
    accept(TimestampOutput, "2026-11-21T22:47:22.123Z");
    reject(TimestampOutput, "2026-11-21T22:47:22Z");
    reject(TimestampOutput, "2026-11-21T23:47:22.123+01:00");
  });
});

describe("money and currency", () => {
  it("Currency is three upper-case letters", () => {
    accept(Currency, "USD");
    for (const bad of ["usd", "US", "USDT", "U$D"]) reject(Currency, bad);
  });
  it("NonNegativeMoney accepts 0 and decimals, rejects negatives and non-finite numbers", () => {
    accept(NonNegativeMoney, 0);
    accept(NonNegativeMoney, 0.15);
    for (const bad of [-0.01, Infinity, NaN, "1.5"]) reject(NonNegativeMoney, bad);
  });
});

describe("PaginationQuery", () => {
  it("defaults limit to 100 and coerces it from the query string", () => {
    expect(accept(PaginationQuery, {})).toEqual({ limit: 100 });
    expect(accept(PaginationQuery, { limit: "500", cursor: "abc" })).toEqual({ limit: 500, cursor: "abc" });
  });
  it.each(["0", "501", "1.5", "ten", ["1", "2"]])("rejects limit %j", (limit) => {
    reject(PaginationQuery, { limit }, ["limit"]);
  });
  it("rejects a cursor over 512 characters", () => {
    reject(PaginationQuery, { cursor: "c".repeat(513) }, ["cursor"]);
  });
});

describe("queryArray", () => {
  const Regions = queryArray(z.string());
  const Arch = queryArray(z.enum(["x86_64", "arm64"]));
  it("splits comma-separated values, trims them and drops empty items", () => {
    expect(accept(Regions, " us-east-1 ,, eu-west-1,")).toEqual(["us-east-1", "eu-west-1"]);
  });
  it("accepts repeated parameters mixed with comma lists", () => {
    expect(accept(Regions, ["us-east-1,eu-west-1", "ap-southeast-1"])).toEqual(["us-east-1", "eu-west-1", "ap-southeast-1"]);
  });
  it("yields an empty list for an empty parameter", () => {
    expect(accept(Regions, "")).toEqual([]);
  });
  it("validates each item", () => {
    expect(accept(Arch, "arm64,x86_64")).toEqual(["arm64", "x86_64"]);
    reject(Arch, "arm64,amd64", [1]);
  });
  it("rejects non-string query shapes", () => {
    reject(Regions, { a: "b" });
    reject(Regions, 3);
  });
});

describe("queryBoolean", () => {
  it.each([
    ["true", true],
    ["TRUE", true],
    ["False", false],
    ["false", false],
  ])("parses %j", (input, output) => {
    expect(accept(queryBoolean, input)).toBe(output);
  });
  it.each(["yes", "1", "0", "", "on", ["true", "true"]])("rejects %j", (input) => {
    reject(queryBoolean, input);
  });
});

describe("FreeObject", () => {
  const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`);

  it("accepts objects up to 32 levels deep (itself level 1, arrays count) and refuses deeper ones", () => {
    expect(FREE_OBJECT_MAX_DEPTH).toBe(32);
    accept(FreeObject, nested(32));
    accept(FreeObject, { list: [[[{ x: 1 }]]] });
    reject(FreeObject, nested(33));
    reject(FreeObject, { a: JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`) });
  });

  it("measures depth without recursion, stopping past the limit", () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: null }] })).toBe(3);
    expect(jsonDepth(nested(100_000))).toBe(33);
  });
});
