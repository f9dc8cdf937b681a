import { newId } from "../src";

describe("newId", () => {
  it("makes unique, prefixed, URL-safe ids of at most 64 characters that sort by time", async () => {
    const first = newId("mpr");
    await new Promise((r) => setTimeout(r, 2));
    const ids = Array.from({ length: 1000 }, () => newId("mpr"));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^mpr_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(first < ids[0]).toBe(true);
  });
});
