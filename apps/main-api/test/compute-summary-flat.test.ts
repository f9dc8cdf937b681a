import request from "supertest";
import type { SummaryQuery } from "@cloudcost/contracts";
import { shaped, vm } from "./helpers/compute-fleet";
import { startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { summaryStatement } from "../src/compute/recommendation-repository";

// The summary of a fixed fleet costs the same however many samples its agents sent since: ingest
// must not leave row versions behind in what the summary reads. Measured as the pages and tuples the
// summary's own statement touches (EXPLAIN ANALYZE with BUFFERS), not as time. Before ingest kept the
// heartbeat in a table of its own, every sample batch rewrote each of its resources' rows in
// compute_resources, and the same summary read ever more of them (issue 55: 200x more after a minute).
// Then every batch still rewrote each resource's heartbeat, which the `active` filter reads: on
// PostgreSQL, while any transaction of the database held an older snapshot (a cycle, a report) no
// version could be pruned or vacuumed, and the three queries below read 2,381 pages before and 11,920
// after the 45 batches (CI, without the held snapshot: 4,055 and 7,018). A batch now moves a
// heartbeat only once it is 10 s newer (HEARTBEAT_RESOLUTION_SECONDS): 2,381 and 2,381.
let ctx: TestContext;
let stub: PricingStub;
beforeAll(async () => {
  stub = await startPricingStub(1500);
  ctx = await createTestContext({ PRICING_API_URL: stub.url });
});
afterAll(async () => {
  await ctx.close();
  await stub.close();
});

const RESOURCES = 200;
const ids = Array.from({ length: RESOURCES }, (_, i) => `flat-${String(i).padStart(4, "0")}`);

interface PlanNode {
  "Node Type": string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Heap Fetches"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** What a run of the summary read: pages (shared buffers) and tuples (rows, heap fetches and filtered rows of every node). */
function readCounts(node: PlanNode): { pages: number; tuples: number } {
  const own = {
    pages: (node["Shared Hit Blocks"] ?? 0) + (node["Shared Read Blocks"] ?? 0),
    tuples:
      (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1) +
      (node["Heap Fetches"] ?? 0) +
      (node["Rows Removed by Filter"] ?? 0) +
      (node["Rows Removed by Index Recheck"] ?? 0),
  };
  // A node's buffers include its children's: the top node's count is the statement's.
  const tuples = (node.Plans ?? []).reduce((sum, child) => sum + readCounts(child).tuples, own.tuples);
  return { pages: own.pages, tuples };
}

describe("the summary of a fixed fleet", () => {
  it("reads the same pages and tuples after 10x more samples of the same resources, with an older snapshot held open", async () => {
    const owner = await signUp(ctx, { email: "flat-summary-owner@example.com" });
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: ids.map((id, i) => vm(id, i % 2 ? "m5.xlarge" : "m5.2xlarge")) })
      .expect(200);
    for (let i = 0; i < RESOURCES; i += 100) {
      await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
        .send({ samples: ids.slice(i, i + 100).flatMap((id, k) => shaped(id, k % 3 ? 10 : 60, 70, undefined, 30)) })
        .expect(200);
    }
    await as(request(ctx.app).post("/api/v1/tenant/compute/recommendations/analyze")).expect(200);

    // Live agents as the mixed-load benchmark's: ten batches a second, each one sample per
    // resource, each newer than the last.
    const start = Date.now() - 3 * 60_000;
    let sent = 0;
    const ingest = async (batches: number) => {
      for (let b = 0; b < batches; b++, sent++) {
        const timestamp = new Date(start + sent * 100).toISOString();
        await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
          .send({ samples: ids.map((resource_id, i) => ({ resource_id, timestamp, cpu_utilization: (i * 7) % 100 })) })
          .expect(200);
      }
    };
    const tenant = { id: owner.tenant.id, organizationId: owner.organization.id };
    const queries: SummaryQuery[] = [
      { resource_type: "virtual_machine" } as SummaryQuery,
      { resource_type: "virtual_machine", provider: ["aws"], active: true } as SummaryQuery,
      { resource_type: "virtual_machine", active: false } as SummaryQuery,
    ];
    const measure = async () => {
      const counts = [];
      for (const query of queries) {
        const { sql, params } = summaryStatement(tenant, query);
        // Once unmeasured: the first read after writes may set hint bits and prune pages.
        await ctx.db.sql.query(sql, params);
        const [row] = await ctx.db.sql.query<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
        const plan = typeof row["QUERY PLAN"] === "string" ? JSON.parse(row["QUERY PLAN"]) : row["QUERY PLAN"];
        counts.push(readCounts(plan[0].Plan));
      }
      return counts;
    };

    await ingest(5);
    const before = await measure();
    // No vacuum runs between the two reads, and on PostgreSQL a transaction on another connection
    // holds a snapshot older than all 45 batches (as a long cycle or report does): no row version
    // ingest leaves behind can be pruned meanwhile. The embedded database has one connection.
    let after: { pages: number; tuples: number }[] = [];
    if (ctx.db.kind === "postgres") {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held = () => {};
      const holding = new Promise<void>((resolve) => {
        held = resolve;
      });
      const snapshot = ctx.db.sql.withSession(async (session) => {
        await session.exec("BEGIN ISOLATION LEVEL REPEATABLE READ");
        await session.query("SELECT count(*) FROM compute_resource_heartbeats");
        held();
        await released;
        await session.exec("COMMIT");
      });
      await holding;
      try {
        await ingest(45);
        after = await measure();
      } finally {
        release();
        await snapshot;
      }
    } else {
      await ingest(45);
      after = await measure();
    }
    expect(sent).toBe(50);
    // Summed over the three queries, within 10 %: a plan may shift by a few pages between two reads.
    const total = (counts: { pages: number; tuples: number }[], key: "pages" | "tuples") => counts.reduce((sum, c) => sum + c[key], 0);
    expect(total(after, "pages")).toBeLessThanOrEqual(total(before, "pages") * 1.1);
    expect(total(after, "tuples")).toBeLessThanOrEqual(total(before, "tuples") * 1.1);
    // The summary still answers what it answered (every resource active: all sent samples just now).
    const summary = await as(request(ctx.app).get("/api/v1/tenant/compute/recommendations/summary?active=true")).expect(200);
    expect(summary.body.data.total_resources).toBe(RESOURCES);
  }, 120_000);
});
