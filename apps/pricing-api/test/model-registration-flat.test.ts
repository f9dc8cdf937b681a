import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, modelEntry, type Client } from "./helpers/pricing";
import { latestRowsStatement } from "../src/models/repository";
import { modelKeyOf } from "../src/models/rows";

// A registration of the same models costs the same however many versions of them came before.
// Every price change of a model closes its open row and opens a new version, so the versions of a
// busy model grow with every registration (the mixed-load benchmark changes the price of the same
// 10 entries 4 times a second: 2,400 versions each after 10 minutes). Reading the latest version of
// each identity read all of its versions and sorted them (DISTINCT ON), and the registration's
// median grew from 30 to 218 ms over those 10 minutes. Measured as the rows and pages the statement
// touches (EXPLAIN ANALYZE with BUFFERS), not as time.
let ctx: TestContext;
let a: Client;
beforeAll(async () => {
  ctx = await createTestContext();
  a = client(ctx, await createApiKey(ctx, "acct_flat"));
});
afterAll(async () => {
  await ctx.close();
});

interface PlanNode {
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Heap Fetches"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** Pages (shared buffers of the top node: its children's included) and tuples (every node's rows, heap fetches and filtered rows). */
function readCounts(node: PlanNode): { pages: number; tuples: number } {
  const own =
    (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1) +
    (node["Heap Fetches"] ?? 0) +
    (node["Rows Removed by Filter"] ?? 0) +
    (node["Rows Removed by Index Recheck"] ?? 0);
  const tuples = (node.Plans ?? []).reduce((sum, child) => sum + readCounts(child).tuples, own);
  return { pages: (node["Shared Hit Blocks"] ?? 0) + (node["Shared Read Blocks"] ?? 0), tuples };
}

const BUCKETS = ["input", "output", "cache_read", "cache_write"];
/** 12 entries: 3 models x 4 token buckets, every one at `price`. */
const entries = (price: number) =>
  Array.from({ length: 12 }, (_, i) =>
    modelEntry({ model: `Flat ${Math.floor(i / 4)}`, model_id: `flat-${Math.floor(i / 4)}`, token_bucket: BUCKETS[i % 4], unit_price_per_mtok: price }),
  );

describe("registering the same models again", () => {
  it("reads the same rows for their latest versions after 10x more versions", async () => {
    let registered = 0;
    const register = async (times: number) => {
      for (let i = 0; i < times; i++, registered++) {
        // A new price each time: every open row closes and a new version opens.
        const res = await a.post("/marketplace/providers/models", { entries: entries(0.1 + registered / 1000) });
        expect(res.status).toBe(201);
      }
    };
    const identities = entries(0.1).map((entry) => `${modelKeyOf(entry)}|${entry.token_bucket}`);
    const explain = async (session: { query<T>(sql: string, params?: unknown[]): Promise<T[]> }, sql: string, params: unknown[]) => {
      const [row] = await session.query<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      const plan = typeof row["QUERY PLAN"] === "string" ? JSON.parse(row["QUERY PLAN"]) : row["QUERY PLAN"];
      return readCounts(plan[0].Plan);
    };
    // What a registration of the same entries at a new price reads first: their latest versions.
    // With statistics, as autovacuum or the service's own vacuum pass keep them.
    const measure = async () => {
      await ctx.db.sql.exec("ANALYZE model_prices");
      const { sql, params } = latestRowsStatement("acct_flat", identities);
      expect(await ctx.db.sql.query(sql, params)).toHaveLength(12);
      return explain(ctx.db.sql, sql, params);
    };

    await register(5);
    const before = await measure();
    await register(45);
    const after = await measure();
    expect(registered).toBe(50);
    // The open version of each entry is the 50th, at the last price.
    const listed = await a.get("/marketplace/providers/models?provider=openai");
    expect(listed.status).toBe(200);
    const open = listed.body.entries.filter((e: { model: string }) => e.model.startsWith("Flat "));
    expect(open).toHaveLength(12);
    expect(new Set(open.map((e: { unit_price_per_mtok: number }) => e.unit_price_per_mtok))).toEqual(new Set([0.149]));
    // Within 10 %: a plan may shift by a page between two reads; reading every version grew them 10x.
    expect(after.tuples).toBeLessThanOrEqual(before.tuples * 1.1);
    expect(after.pages).toBeLessThanOrEqual(before.pages * 1.1);
  }, 120_000);
});
