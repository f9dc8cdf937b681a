// Multi-part FOCUS imports (docs/api.md, "Import sessions"), black-box against the real app: parts
// are invisible until the last one, then the session is stored as one import.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { expectError, signUp, type SignedUp } from "./helpers/identity";
import { rollupsMatchLines } from "./helpers/rollup";
import { sweepExpiredImportSessions } from "../src/spend/imports/sessions";

let ctx: TestContext;
let org: SignedUp;

const TTL_SECONDS = 3600;

beforeAll(async () => {
  ctx = await createTestContext({ SPEND_IMPORT_SESSION_TTL: String(TTL_SECONDS) });
  org = await signUp(ctx, { company: "Sessions" });
  // Every line to the signed-up tenant: the tenant's lines endpoint shows them.
  await request(ctx.app)
    .put(`${base()}/allocation-rules`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({ rules: [{ tenant_id: org.tenant.id }] })
    .expect(200);
  // A receiver of import.completed: one delivery per event is queued in the outbox.
  await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/webhooks`)
    .set(auth())
    .send({ url: "http://127.0.0.1:9/receiver", events: ["import.completed"] })
    .expect(201);
});
afterAll(async () => {
  await ctx.close();
});
afterEach(() => {
  ctx.deps.clock = () => new Date();
});

const base = () => `/api/v1/organizations/${org.organization.id}/spend`;
const auth = () => ({ Authorization: `Bearer ${org.token}` });

/** A FOCUS file of one line per cost, in account `account`'s October 2026 bill (one charge day each). */
const file = (costs: string[], account = "acct-1") =>
  focusCsvText(
    costs.map((cost, i) => ({
      BilledCost: cost,
      EffectiveCost: cost,
      ListCost: cost,
      ContractedCost: cost,
      BillingAccountId: account,
      ChargePeriodStart: `2026-10-${String(i + 1).padStart(2, "0")}T00:00:00Z`,
      ChargePeriodEnd: `2026-10-${String(i + 2).padStart(2, "0")}T00:00:00Z`,
    })),
  );

const post = (body: string, query: string) =>
  request(ctx.app).post(`${base()}/imports${query}`).set(auth()).set("Content-Type", "text/csv").send(Buffer.from(body));
const postManifest = (manifest: unknown, query: string) =>
  request(ctx.app).post(`${base()}/imports${query}`).set(auth()).set("Content-Type", "application/json").send(JSON.stringify(manifest));

/** The organization's October total (GET .../spend) and the tenant's lines' sum and count (GET /tenant/spend/lines). */
async function visible(): Promise<{ total: string | null; lines: number; linesSum: number }> {
  const spend = await request(ctx.app).get(`${base()}?start=2026-10-01&end=2026-11-01&granularity=none`).set(auth()).expect(200);
  const lines = await request(ctx.app)
    .get("/api/v1/tenant/spend/lines?start=2026-10-01&end=2026-11-01&limit=500")
    .set(auth())
    .set("X-Service-Tenant-ID", org.tenant.id)
    .expect(200);
  const items = lines.body.data.items as { billed_cost: string }[];
  return {
    total: spend.body.data.totals[0]?.cost ?? null,
    lines: items.length,
    linesSum: items.reduce((sum, item) => sum + Number(item.billed_cost), 0),
  };
}

const staged = async () => (await ctx.prisma.spendStagedLine.count({ where: { organizationId: org.organization.id } })) as number;
const events = () =>
  ctx.prisma.webhookEvent.findMany({ where: { organizationId: org.organization.id, type: "import.completed" }, orderBy: { createdAt: "asc" } });
const deliveries = () => ctx.prisma.webhookDelivery.count({ where: { organizationId: org.organization.id } });
/** The organization's CSV export for October: its data rows. */
async function exported(): Promise<string[]> {
  const res = await request(ctx.app)
    .get(`${base()}/export?start=2026-10-01&end=2026-11-01`)
    .set(auth())
    .buffer(true)
    .parse((r, done) => {
      let text = "";
      r.setEncoding("utf8");
      r.on("data", (chunk: string) => {
        text += chunk;
      });
      r.on("end", () => done(null, text));
    });
  expect(res.status).toBe(200);
  return (res.body as string).split("\n").slice(1).filter(Boolean);
}

async function clear(): Promise<void> {
  const page = await request(ctx.app).get(`${base()}/imports?limit=500`).set(auth()).expect(200);
  for (const item of page.body.data.items) await request(ctx.app).delete(`${base()}/imports/${item.id}`).set(auth()).expect(204);
  await ctx.prisma.spendImportSession.deleteMany({ where: { organizationId: org.organization.id } });
  await ctx.prisma.webhookDelivery.deleteMany({ where: { organizationId: org.organization.id } });
  await ctx.prisma.webhookEvent.deleteMany({ where: { organizationId: org.organization.id } });
}

beforeEach(clear);

describe("import sessions", () => {
  test.each([
    ["in order", [1, 2]],
    ["in reverse order", [2, 1]],
  ])("two parts of one period (%s): nothing visible before the last part, then the sum of both, once", async (_, order) => {
    const files: Record<number, string> = { 1: file(["1.5", "2.25"]), 2: file(["10"]) };
    const first = await post(files[order[0]], `?session=oct-2026&part=${order[0]}&parts=2`).expect(201);
    expect(first.body.data.import).toMatchObject({ session: "oct-2026", part: order[0], parts: 2, state: "pending", rows: order[0] === 1 ? 2 : 1 });
    expect(first.body.data.session).toMatchObject({ id: "oct-2026", parts: 2, state: "pending", completed_at: null });
    expect(await visible()).toEqual({ total: null, lines: 0, linesSum: 0 });
    expect(await exported()).toEqual([]);
    expect(await deliveries()).toBe(0);
    expect(await staged()).toBe(order[0] === 1 ? 2 : 1);
    const got = await request(ctx.app).get(`${base()}/imports/${first.body.data.import.id}`).set(auth()).expect(200);
    expect(got.body.data.import).toMatchObject({ state: "pending", session: "oct-2026", part: order[0], parts: 2 });

    const last = await post(files[order[1]], `?session=oct-2026&part=${order[1]}&parts=2`).expect(201);
    expect(last.body.data.import.state).toBe("completed");
    expect(last.body.data.session).toMatchObject({ state: "completed", rows: 3, totals: [{ currency: "USD", billed_cost: "13.75", effective_cost: "13.75" }] });
    expect(last.body.data.session.received_parts.map((p: { part: number }) => p.part)).toEqual([1, 2]);
    expect(await visible()).toEqual({ total: "13.75", lines: 3, linesSum: 13.75 });
    expect(await exported()).toHaveLength(3);
    expect(await staged()).toBe(0);
    await rollupsMatchLines(ctx, org.organization.id);
    const list = await request(ctx.app).get(`${base()}/imports`).set(auth()).expect(200);
    expect(list.body.data.items.map((i: { state: string; part: number }) => [i.part, i.state]).sort()).toEqual([
      [1, "completed"],
      [2, "completed"],
    ]);
    // import.completed once, with the session's totals.
    const emitted = await events();
    expect(emitted).toHaveLength(1);
    expect(emitted[0].data).toMatchObject({ session: "oct-2026", parts: 2, rows: 3, totals: [{ currency: "USD", billed_cost: "13.75" }] });
    expect(await deliveries()).toBe(1);
  });

  test("a part sent again replaces only that part; the parts of a session never replace one another", async () => {
    await post(file(["1", "2"]), "?session=resend&part=1&parts=3").expect(201);
    await post(file(["100"]), "?session=resend&part=2&parts=3").expect(201);
    const again = await post(file(["5"]), "?session=resend&part=2&parts=3").expect(201);
    expect(again.body.data.session.received_parts.map((p: { part: number; rows: number }) => [p.part, p.rows])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(await staged()).toBe(3);
    expect(await ctx.prisma.spendImport.count({ where: { organizationId: org.organization.id, sessionId: "resend" } })).toBe(2);
    expect(await visible()).toEqual({ total: null, lines: 0, linesSum: 0 });
    // Part 3 holds the same billing account and period as parts 1 and 2: all three stay.
    await post(file(["0.5"]), "?session=resend&part=3").expect(201);
    expect(await visible()).toEqual({ total: "8.5", lines: 4, linesSum: 8.5 });
    await rollupsMatchLines(ctx, org.organization.id);
  });

  test("400s: part past parts, parts changing, part without parts (no manifest), part or parts without session, session without part", async () => {
    expectError(await post(file(["1"]), "?session=bad&part=3&parts=2"), 400, /part \(3\) is larger than parts \(2\)/);
    expectError(await post(file(["1"]), "?session=bad&part=1"), 400, /parts is required/);
    expectError(await post(file(["1"]), "?part=1&parts=2"), 400, /part needs session/);
    expectError(await post(file(["1"]), "?parts=2"), 400, /parts needs session/);
    expectError(await post(file(["1"]), "?session=bad"), 400, /part is required/);
    expectError(await post(file(["1"]), "?session=bad%21&part=1&parts=2"), 400);
    await post(file(["1"]), "?session=bad&part=1&parts=2").expect(201);
    expectError(await post(file(["1"]), "?session=bad&part=2&parts=3"), 400, /parts \(3\) differs/);
    expectError(await post(file(["1"]), "?session=bad&part=4"), 400, /part \(4\) is larger than the session's parts \(2\)/);
    expect(await ctx.prisma.spendImport.count({ where: { organizationId: org.organization.id, sessionId: "bad" } })).toBe(1);
  });

  test("a session left incomplete expires: the sweep removes its parts and staged lines; a late part starts it over", async () => {
    const start = new Date();
    await post(file(["1", "2"]), "?session=stale&part=1&parts=2").expect(201);
    expect(await staged()).toBe(2);
    expect(await sweepExpiredImportSessions(ctx.prisma, new Date(start.getTime() + (TTL_SECONDS - 60) * 1000))).toBe(0);
    expect(await sweepExpiredImportSessions(ctx.prisma, new Date(start.getTime() + (TTL_SECONDS + 60) * 1000))).toBe(1);
    expect(await staged()).toBe(0);
    expect(await ctx.prisma.spendImport.count({ where: { organizationId: org.organization.id } })).toBe(0);
    expect(await ctx.prisma.spendImportSession.count({ where: { organizationId: org.organization.id } })).toBe(0);

    // Lazily: a part arriving after expiry drops the old parts and starts the session over.
    await post(file(["1", "2"]), "?session=late&part=1&parts=2").expect(201);
    ctx.deps.clock = () => new Date(Date.now() + (TTL_SECONDS + 60) * 1000);
    const late = await post(file(["7"]), "?session=late&part=2&parts=2").expect(201);
    expect(late.body.data.session).toMatchObject({ state: "pending", rows: 1 });
    expect(late.body.data.session.received_parts.map((p: { part: number }) => p.part)).toEqual([2]);
    expect(await staged()).toBe(1);
    expect(await ctx.prisma.spendImport.count({ where: { organizationId: org.organization.id } })).toBe(1);
    expect(await visible()).toEqual({ total: null, lines: 0, linesSum: 0 });
    expect(await events()).toHaveLength(0);
  });

  test("a manifest names the data files and fixes N; parts then come without parts; executionId kept", async () => {
    const manifest = {
      executionId: "exec-123",
      dataFiles: ["s3://bucket/prefix/export-00001.csv.gz", "s3://bucket/prefix/export-00002.csv.gz"],
      someOtherField: { kept: false },
    };
    const res = await postManifest(manifest, "?session=aws-exec-123").expect(201);
    expect(res.body.data).toEqual({
      session: {
        id: "aws-exec-123",
        parts: 2,
        execution_id: "exec-123",
        data_files: manifest.dataFiles,
        state: "pending",
        created_at: expect.any(String),
        expires_at: expect.any(String),
        completed_at: null,
        received_parts: [],
        rows: 0,
        totals: [],
        superseded_import_ids: [],
      },
    });
    const part2 = await post(file(["3"]), "?session=aws-exec-123&part=2").expect(201);
    expect(part2.body.data.import).toMatchObject({ file_name: "export-00002.csv.gz", part: 2, parts: 2, state: "pending" });
    expectError(await post(file(["3"]), "?session=aws-exec-123&part=3"), 400, /part \(3\)/);
    expectError(await post(file(["3"]), "?session=aws-exec-123&part=1&parts=5"), 400, /parts \(5\) differs/);
    expectError(await postManifest({ dataFiles: ["a", "b", "c"] }, "?session=aws-exec-123"), 400, /dataFiles/);
    const done = await post(file(["4"]), "?session=aws-exec-123&part=1").expect(201);
    expect(done.body.data.session).toMatchObject({ state: "completed", execution_id: "exec-123", rows: 2 });
    expect(await visible()).toMatchObject({ total: "7", lines: 2 });
    const sessions = await request(ctx.app).get(`${base()}/import-sessions`).set(auth()).expect(200);
    expect(sessions.body.data.items).toHaveLength(1);
    expect(sessions.body.data.items[0]).toMatchObject({ id: "aws-exec-123", state: "completed", execution_id: "exec-123", expires_at: null });
    expect(sessions.body.data.items[0].received_parts.map((p: { part: number; file_name: string }) => [p.part, p.file_name])).toEqual([
      [1, "export-00001.csv.gz"],
      [2, "export-00002.csv.gz"],
    ]);
    // A completed session takes no more parts.
    expectError(await post(file(["4"]), "?session=aws-exec-123&part=1"), 409, /already completed/);
  });

  test("400s for a bad manifest", async () => {
    for (const bad of [{}, { dataFiles: [] }, { dataFiles: "s3://x/e-00001.csv" }, { dataFiles: [1, 2] }, { dataFiles: [""] }, [1]]) {
      expectError(await postManifest(bad, "?session=m"), 400);
    }
    expectError(await postManifest({ dataFiles: Array.from({ length: 10_001 }, (_, i) => `s3://b/e-${i}.csv`) }, "?session=m"), 400);
    expectError(await postManifest({ dataFiles: ["s3://b/e-1.csv"] }, ""), 400, /session is required/);
    expectError(await postManifest({ dataFiles: ["s3://b/e-1.csv"] }, "?session=m&part=1"), 400, /session only/);
    const big = await postManifest({ dataFiles: ["x".repeat(1024 * 1024)] }, "?session=m");
    expect(big.status).toBe(413);
    expect(await ctx.prisma.spendImportSession.count({ where: { organizationId: org.organization.id } })).toBe(0);
  });

  test("restating a committed session with a new session replaces it; a plain import then replaces the session", async () => {
    await post(file(["1"]), "?session=v1&part=1&parts=2").expect(201);
    const v1 = await post(file(["2"]), "?session=v1&part=2&parts=2").expect(201);
    expect(await visible()).toMatchObject({ total: "3", lines: 2 });
    await post(file(["10"]), "?session=v2&part=1&parts=2").expect(201);
    // Until v2 completes, v1 stays what the reports show.
    expect(await visible()).toMatchObject({ total: "3", lines: 2 });
    const v2 = await post(file(["20"]), "?session=v2&part=2&parts=2").expect(201);
    expect(await visible()).toMatchObject({ total: "30", lines: 2 });
    expect([...v2.body.data.session.superseded_import_ids].sort()).toEqual(
      v1.body.data.session.received_parts.map((p: { import_id: string }) => p.import_id).sort(),
    );
    await rollupsMatchLines(ctx, org.organization.id);
    await post(file(["0.25"]), "").expect(201);
    expect(await visible()).toMatchObject({ total: "0.25", lines: 1 });
    await rollupsMatchLines(ctx, org.organization.id);
    expect(await events()).toHaveLength(3);
  });

  test("a session in another organization, and another account's period, are untouched", async () => {
    const other = await signUp(ctx, { company: "Other sessions" });
    await request(ctx.app)
      .post(`/api/v1/organizations/${other.organization.id}/spend/imports?session=shared&part=1&parts=2`)
      .set("Authorization", `Bearer ${other.token}`)
      .set("Content-Type", "text/csv")
      .send(Buffer.from(file(["9"])))
      .expect(201);
    await post(file(["5"], "acct-2"), "").expect(201);
    await post(file(["1"]), "?session=shared&part=1&parts=1").expect(201);
    expect(await visible()).toMatchObject({ total: "6", lines: 2 });
    expect(await ctx.prisma.spendStagedLine.count({ where: { organizationId: other.organization.id } })).toBe(1);
  });

  test("two parts arriving at the same moment complete the session exactly once", async () => {
    const [a, b] = await Promise.all([post(file(["1"]), "?session=race&part=1&parts=2"), post(file(["2"]), "?session=race&part=2&parts=2")]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.data.session.state, b.body.data.session.state].sort()).toEqual(["completed", "pending"]);
    expect(await events()).toHaveLength(1);
    expect(await deliveries()).toBe(1);
    expect(await visible()).toMatchObject({ total: "3", lines: 2 });
    expect(await staged()).toBe(0);
    await rollupsMatchLines(ctx, org.organization.id);
  });

  test("the session's lines are allocated by the rules in force when it commits, and its parts' counts follow", async () => {
    const rules = (body: unknown[]) => request(ctx.app).put(`${base()}/allocation-rules`).set(auth()).send({ rules: body }).expect(200);
    await rules([]);
    try {
      const first = await post(file(["1", "2"]), "?session=rules&part=1&parts=2").expect(201);
      expect(first.body.data.import).toMatchObject({ allocated_rows: 0, unallocated_rows: 2 });
      await rules([{ tenant_id: org.tenant.id }]);
      await post(file(["4"]), "?session=rules&part=2&parts=2").expect(201);
      expect(await visible()).toEqual({ total: "7", lines: 3, linesSum: 7 });
      const part1 = await request(ctx.app).get(`${base()}/imports/${first.body.data.import.id}`).set(auth()).expect(200);
      expect(part1.body.data.import).toMatchObject({ state: "completed", allocated_rows: 2, unallocated_rows: 0 });
      await rollupsMatchLines(ctx, org.organization.id);
    } finally {
      await rules([{ tenant_id: org.tenant.id }]);
    }
  });

  test("deleting a pending part removes its staged lines", async () => {
    const part = await post(file(["1", "2"]), "?session=del&part=1&parts=2").expect(201);
    await request(ctx.app).delete(`${base()}/imports/${part.body.data.import.id}`).set(auth()).expect(204);
    expect(await staged()).toBe(0);
  });
});
