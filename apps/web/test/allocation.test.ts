import { describe, expect, it } from "vitest";
import { moved, ruleToForm, rulesBody } from "../src/features/settings/allocation";

const row = (over: Partial<Parameters<typeof rulesBody>[0][number]> = {}) => ({
  tenant_id: "ten_1",
  sub_account_ids: "",
  billing_account_ids: "",
  tag_key: "",
  tag_values: "",
  ...over,
});

describe("allocation rules form", () => {
  it("makes the PUT body in order, lists split and deduplicated, empty criteria left out", () => {
    expect(rulesBody([row({ sub_account_ids: "111, 222,,111" }), row({ tenant_id: "ten_2", tag_key: " team ", tag_values: "ml, data" }), row()])).toEqual({
      rules: [
        { tenant_id: "ten_1", sub_account_ids: ["111", "222"] },
        { tenant_id: "ten_2", tag: { key: "team", values: ["ml", "data"] } },
        { tenant_id: "ten_1" },
      ],
    });
  });
  it("names the rule that is incomplete", () => {
    expect(rulesBody([row(), row({ tenant_id: "" })])).toEqual({ error: "Rule 2: pick the tenant it allocates to." });
    expect(rulesBody([row({ tag_key: "team" })])).toEqual({ error: "Rule 1: a tag criterion needs both its key and at least one value." });
  });
  it("round-trips stored rules and moves rules within bounds", () => {
    const stored = { tenant_id: "t", billing_account_ids: ["b"], tag: { key: "k", values: ["v", "w"] } };
    expect(rulesBody([ruleToForm(stored)])).toEqual({ rules: [stored] });
    expect(moved(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(moved(["a", "b"], 0, -1)).toEqual(["a", "b"]);
  });
});
