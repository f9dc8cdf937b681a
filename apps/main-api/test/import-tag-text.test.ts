// Tag values as the ledger keeps them: text as it is, anything else as its JSON. A Parquet file's
// tags may hold int64 values (BigInt once read), which JSON.stringify alone refuses with a TypeError.
import { textTags } from "../src/spend/imports/import-lines";

describe("textTags", () => {
  it("keeps strings and null, writes numbers, booleans and objects as JSON, and an int64 as its digits", () => {
    expect(textTags({ team: "web", none: null, count: 3, flag: true, nested: { a: 1 }, big: 9007199254740993n })).toEqual({
      team: "web",
      none: null,
      count: "3",
      flag: "true",
      nested: '{"a":1}',
      big: "9007199254740993",
    });
  });

  it("answers the same object when every value is already text", () => {
    const tags = { team: "web", env: "prod" };
    expect(textTags(tags)).toBe(tags);
  });
});
