import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import request from "supertest";
import { vm } from "./helpers/compute-fleet";
import { createTestContext, type TestContext } from "./helpers/context";
import { fixture } from "./helpers/focus-files";
import { signUp } from "./helpers/identity";
import { admissionClassOf } from "../src/http/admission";
import { mainApiRoutes } from "@cloudcost/contracts";

// Admission per class of operations (http/admission.ts). A service offered more than it can do used
// to take every request in: under a minute of mixed load every answer came after up to a minute.
// Now the excess of one class waits in a bounded line and is refused quickly (503 with Retry-After),
// while the other classes are answered as usual. Uploads hold their slot while the client sends, so
// a stalled upload is how this test keeps the import class busy without timing anything.
let ctx: TestContext;
let server: Server;
let port: number;
let owner: Awaited<ReturnType<typeof signUp>>;
const WAIT_MS = 1500;

beforeAll(async () => {
  ctx = await createTestContext({ MAIN_API_IMPORT_CONCURRENCY: "1", MAIN_API_IMPORT_QUEUE: "1", MAIN_API_ADMISSION_WAIT_MS: String(WAIT_MS) });
  server = ctx.app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
  owner = await signUp(ctx, { email: "overload-owner@example.com" });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(check: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await sleep(10);
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { status?: string; message?: string };
  ms: number;
}

/** A raw upload announcing `length` bytes; the test writes them itself. */
function upload(length: number) {
  const started = Date.now();
  const req = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: `/api/v1/organizations/${owner.organization.id}/spend/imports`,
    headers: { Authorization: `Bearer ${owner.token}`, "Content-Type": "text/csv", "Content-Length": length },
  });
  const answer = new Promise<Answer>((resolve) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text || "{}"), ms: Date.now() - started }));
    });
    req.on("error", () => resolve({ status: 0, headers: {}, body: {}, ms: Date.now() - started }));
  });
  return { req, answer };
}

describe("admission per class of operations", () => {
  it("classes every operation: agents' ingest, uploads, other writes and reads; health probes are never limited", () => {
    const classes = Object.fromEntries(Object.entries(mainApiRoutes).map(([name, route]) => [name, admissionClassOf(route)]));
    expect(classes).toMatchObject({
      ingestMetrics: "ingest",
      recordHeartbeats: "ingest",
      upsertResources: "ingest",
      ingestPods: "ingest",
      ingestUsage: "ingest",
      postBusinessMetricValues: "ingest",
      createSpendImport: "import",
      analyzeRecommendations: "write",
      getRecommendationSummary: "read",
      mainHealthz: undefined,
      mainReadyz: undefined,
    });
  });

  it("refuses the request beyond the line at once and a waiting one when its wait runs out (503, Retry-After); other classes are answered meanwhile", async () => {
    const file = fixture("aws-focus-1.0.csv");
    const counts = () => ctx.deps.admission.counts().import;
    // One upload stalls mid-file: it holds the one import slot.
    const stalled = upload(file.length);
    stalled.req.write(file.subarray(0, 100));
    await waitFor(() => counts().running === 1);
    // A second one waits for the slot (its whole file sent).
    const waiting = upload(file.length);
    waiting.req.end(file);
    await waitFor(() => counts().waiting === 1);

    // The line is full: a third is refused at once, in the API's shape, with Retry-After.
    const refused = upload(file.length);
    refused.req.end(file);
    const third = await refused.answer;
    expect(third.status).toBe(503);
    expect(third.headers["retry-after"]).toBe(String(Math.ceil(WAIT_MS / 1000)));
    expect(third.headers["x-error-code"]).toBe("service_unavailable");
    expect(third.body).toMatchObject({ status: "error", message: expect.stringContaining("import") });
    // Generous bound: it did not wait for the slot (which is held until the test lets go).
    expect(third.ms).toBeLessThan(WAIT_MS);

    // Reads, ingest and other writes have slots of their own and are answered while uploads are full.
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: [vm("busy-1", "m5.large")] })
      .expect(200);
    await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
      .send({ samples: [{ resource_id: "busy-1", timestamp: new Date(Date.now() - 60_000).toISOString(), cpu_utilization: 5 }] })
      .expect(200);
    await as(request(ctx.app).get("/api/v1/tenant/compute/recommendations/summary")).expect(200);
    await request(ctx.app).get("/healthz").expect(200);

    // The waiting upload's turn never came: refused once its wait ran out, not answered late.
    const second = await waiting.answer;
    expect(second.status).toBe(503);
    expect(second.headers["retry-after"]).toBe("2");
    expect(second.ms).toBeGreaterThanOrEqual(WAIT_MS - 50);
    expect(counts()).toMatchObject({ running: 1, waiting: 0, refused: 2 });

    // The stalled client goes away: its slot is free again, and the next upload is taken in.
    stalled.req.destroy();
    await waitFor(() => counts().running === 0);
    const next = upload(file.length);
    next.req.end(file);
    expect((await next.answer).status).toBe(201);
    expect(counts()).toMatchObject({ running: 0, waiting: 0 });
  }, 60_000);
});
