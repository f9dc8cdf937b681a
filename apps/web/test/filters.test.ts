import { describe, expect, it } from "vitest";
import { apiQuery, LIST_KEYS, SUMMARY_KEYS, toggled, withFilter } from "../src/features/recommendations/filters";
import { listValue } from "../src/shared/url-query";

describe("recommendation filters in the URL", () => {
  it("splits lists like the API: trimmed, empty items dropped", () => {
    expect(listValue(" aws, ,gcp,, ")).toEqual(["aws", "gcp"]);
    expect(listValue(null)).toEqual([]);
  });

  it("sends only the keys a view takes, repeated and comma forms merged", () => {
    const search = new URLSearchParams("provider=aws&provider=gcp,azure&action=DOWNSIZE&cursor=abc&resource=vm-1&region=");
    expect(apiQuery(search, SUMMARY_KEYS).toString()).toBe("provider=aws%2Cgcp%2Cazure");
    expect(Object.fromEntries(apiQuery(search, LIST_KEYS))).toEqual({ provider: "aws,gcp,azure", action: "DOWNSIZE", cursor: "abc" });
  });

  it("a changed filter starts again at the first page; an empty one is removed", () => {
    const search = new URLSearchParams("region=us-east-1&cursor=abc");
    expect(withFilter(search, "provider", "aws").toString()).toBe("region=us-east-1&provider=aws");
    expect(withFilter(search, "region", "  ").toString()).toBe("");
    expect(withFilter(search, "cursor", "next").get("region")).toBe("us-east-1");
  });

  it("toggles one value of a list filter", () => {
    let search = new URLSearchParams();
    search = toggled(search, "action", "DOWNSIZE");
    search = toggled(search, "action", "TERMINATE");
    expect(search.get("action")).toBe("DOWNSIZE,TERMINATE");
    expect(toggled(search, "action", "DOWNSIZE").get("action")).toBe("TERMINATE");
    expect(toggled(toggled(search, "action", "DOWNSIZE"), "action", "TERMINATE").has("action")).toBe(false);
  });
});
