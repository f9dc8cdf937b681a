import { describe, expect, it } from "vitest";
import { describeError, errorMessage } from "../src/shared/api/errors";
import { age, formatUsd } from "../src/shared/format";
import { slugFrom, slugProblem } from "../src/shared/slug";

describe("slug", () => {
  it("derives what the API accepts", () => {
    expect(slugFrom("  Ünïcode & Co. GmbH ")).toBe("unicode-co-gmbh");
    expect(slugFrom("-a-")).toBe("a");
    expect(slugFrom(`${"x".repeat(70)} y`)).toHaveLength(63);
  });
  it("explains a slug the API would refuse", () => {
    expect(slugProblem("ab")).toMatch(/3 to 63/);
    expect(slugProblem("-abc")).toMatch(/dash/);
    expect(slugProblem("Abc")).toMatch(/lower-case/);
    expect(slugProblem("acme-1")).toBeUndefined();
    expect(slugProblem("")).toBeUndefined();
  });
});

describe("API errors in words", () => {
  it("reads the envelope, the problem document (with field errors) and the marketplace shape", () => {
    expect(errorMessage(409, { message: "Slug taken", status: "error" })).toBe("Slug taken");
    expect(errorMessage(400, { title: "Bad Request", detail: "invalid request", errors: [{ path: "provider", message: "required" }] })).toBe(
      "invalid request (provider: required)",
    );
    expect(errorMessage(404, { error: "No such entry" })).toBe("No such entry");
  });
  it("falls back to words for bodies without a message", () => {
    expect(errorMessage(503, "<html>")).toMatch(/unavailable/);
    expect(errorMessage(0, null)).toMatch(/could not be reached/);
    expect(errorMessage(418, null)).toBe("The request failed (HTTP 418).");
    expect(describeError("x")).toBe("Something went wrong.");
  });
});

describe("formatting", () => {
  it("money and age", () => {
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd("-12.30")).toBe("-$12.30");
    expect(formatUsd(null)).toBe("—");
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(age("2026-11-22T11:00:00Z", now)).toBe("3 days ago");
    expect(age("2026-11-25T10:30:00Z", now)).toBe("1 hour ago");
  });
});
