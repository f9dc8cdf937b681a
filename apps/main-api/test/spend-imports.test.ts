import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { fixture, focusCsvText, focusParquet } from "./helpers/focus-files";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";
import { EVENTUALLY_TIMEOUT_MS } from "@cloudcost/testing";

let ctx: TestContext;
let org: SignedUp;
let tenant2: string;
let admin: string;
let member: string;
let viewer: string;

beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx, { company: "Importer" });
  tenant2 = (
    await request(ctx.app)
      .post(`/api/v1/organizations/${org.organization.id}/tenants`)
      .set("Authorization", `Bearer ${org.token}`)
      .send({ name: "Ads" })
      .expect(201)
  ).body.data.id;
  admin = (await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "admin" })).token;
  member = (await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member", tenantIds: [org.tenant.id] })).token;
  viewer = (await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "viewer", tenantIds: [org.tenant.id] })).token;
});
afterAll(async () => {
  await ctx.close();
});

const base = (o: SignedUp = org) => `/api/v1/organizations/${o.organization.id}/spend`;
const upload = (body: Buffer | string, options: { token?: string; type?: string; encoding?: string; query?: string; o?: SignedUp } = {}) => {
  let req = request(ctx.app)
    .post(`${base(options.o)}/imports${options.query ?? ""}`)
    .set("Authorization", `Bearer ${options.token ?? org.token}`)
    .set("Content-Type", options.type ?? "text/csv");
  if (options.encoding) req = req.set("Content-Encoding", options.encoding);
  return req.send(Buffer.from(body));
};
const putRules = (rules: unknown[], token = org.token) =>
  request(ctx.app).put(`${base()}/allocation-rules`).set("Authorization", `Bearer ${token}`).send({ rules });

async function clearImports(): Promise<void> {
  const page = await request(ctx.app).get(`${base()}/imports?limit=500`).set("Authorization", `Bearer ${org.token}`).expect(200);
  for (const item of page.body.data.items) {
    await request(ctx.app).delete(`${base()}/imports/${item.id}`).set("Authorization", `Bearer ${org.token}`).expect(204);
  }
  await putRules([]).expect(200);
}

/** Lines per tenant ('' unallocated) with their billed sum, from the lines and from both roll-ups: the three must agree. */
async function ledger(): Promise<Record<string, { lines: number; billed: string }>> {
  const orgId = org.organization.id;
  const lines = await ctx.prisma.$queryRawUnsafe<{ tenant: string; lines: number; billed: string }[]>(
    `SELECT coalesce(tenant_id, '') AS tenant, count(*)::int AS lines, coalesce(sum(billed_cost), 0)::text AS billed
       FROM spend_lines WHERE organization_id = $1 AND source = 'focus_import' GROUP BY 1 ORDER BY 1`,
    orgId,
  );
  for (const table of ["spend_daily", "spend_service_daily"]) {
    const rollup = await ctx.prisma.$queryRawUnsafe<{ tenant: string; lines: number; billed: string }[]>(
      `SELECT tenant_id AS tenant, sum(line_count)::int AS lines, sum(billed_cost)::text AS billed
         FROM ${table} WHERE organization_id = $1 AND source = 'focus_import' GROUP BY 1 HAVING sum(line_count) > 0 ORDER BY 1`,
      orgId,
    );
    expect(rollup).toEqual(lines);
  }
  return Object.fromEntries(lines.map((r) => [r.tenant, { lines: r.lines, billed: r.billed.replace(/\.?0+$/, "") }]));
}

describe("POST .../spend/imports", () => {
  beforeEach(clearImports);

  test("201: the AWS-style file, no rules: every line stored unallocated, with the answer of docs/api.md, 'Cloud bills: FOCUS import'", async () => {
    const res = await upload(fixture("aws-focus-1.0.csv"), { query: "?file_name=aws-october.csv" }).expect(201);
    expect(res.body.data.import).toEqual({
      id: expect.stringMatching(/^imp_/),
      created_at: expect.any(String),
      file_name: "aws-october.csv",
      focus_version: "1.0",
      rows: 5,
      allocated_rows: 0,
      unallocated_rows: 5,
      billing_account_ids: ["111111111111"],
      billing_periods: [{ start: "2026-10-01T00:00:00.000Z", end: "2026-11-01T00:00:00.000Z" }],
      totals: [{ currency: "USD", billed_cost: "1.41320012", effective_cost: "1.41320012" }],
      superseded_import_ids: [],
      session: null,
      part: null,
      parts: null,
      state: "completed",
    });
    expect(await ledger()).toEqual({ "": { lines: 5, billed: "1.41320012" } });
    const line = await ctx.prisma.spendLine.findFirstOrThrow({ where: { organizationId: org.organization.id, resourceId: "arn:aws:s3:::acme-logs" } });
    expect(line).toMatchObject({
      tenantId: null,
      source: "focus_import",
      importId: res.body.data.import.id,
      tags: { team: "ads" },
      billingAccountId: "111111111111",
    });
    const got = await request(ctx.app).get(`${base()}/imports/${res.body.data.import.id}`).set("Authorization", `Bearer ${admin}`).expect(200);
    expect(got.body.data.import).toEqual(res.body.data.import);
  });

  test("allocation at import: first matching rule wins; sub account, billing account and tag criteria", async () => {
    await putRules([
      { tenant_id: tenant2, tag: { key: "team", values: ["ads"] } },
      { tenant_id: org.tenant.id, sub_account_ids: ["222222222222", "333333333333"] },
      { tenant_id: tenant2, billing_account_ids: ["no-such-account"] },
    ]).expect(200);
    const res = await upload(fixture("aws-focus-1.0.csv")).expect(201);
    expect(res.body.data.import).toMatchObject({ rows: 5, allocated_rows: 4, unallocated_rows: 1 });
    expect(await ledger()).toEqual({
      "": { lines: 1, billed: "0.00000012" },
      [org.tenant.id]: { lines: 3, billed: "0.1832" },
      [tenant2]: { lines: 1, billed: "1.23" },
    });
  });

  test("changing the rules re-allocates the stored import lines in one transaction, the roll-up following", async () => {
    await upload(fixture("aws-focus-1.0.csv")).expect(201);
    await upload(fixture("azure-focus-1.2.csv")).expect(201);
    const put = await putRules([{ tenant_id: tenant2, billing_account_ids: ["111111111111"] }]).expect(200);
    expect(put.body.data).toEqual({ rules: [{ tenant_id: tenant2, billing_account_ids: ["111111111111"] }], reallocated_lines: 5 });
    expect((await ledger())[tenant2]).toEqual({ lines: 5, billed: "1.41320012" });
    const again = await putRules([{ tenant_id: org.tenant.id, sub_account_ids: ["/subscriptions/aaaa-1111"] }, { tenant_id: tenant2 }]).expect(200);
    // Azure's two aaaa-1111 lines to tenant 1; the catch-all takes the rest (AWS's 5 stay, Azure's bbbb-2222 moves).
    expect(again.body.data.reallocated_lines).toBe(3);
    expect(await ledger()).toEqual({ [org.tenant.id]: { lines: 2, billed: "4.608" }, [tenant2]: { lines: 6, billed: "0.91320012" } });
    const rules = await request(ctx.app).get(`${base()}/allocation-rules`).set("Authorization", `Bearer ${admin}`).expect(200);
    expect(rules.body.data.rules).toHaveLength(2);
    await putRules([]).expect(200);
    expect(Object.keys(await ledger())).toEqual([""]);
  });

  test("supersede: re-sending a file replaces its (billing account, period) lines, never double counts", async () => {
    const first = (await upload(fixture("aws-focus-1.0.csv")).expect(201)).body.data.import;
    const second = (await upload(fixture("aws-focus-1.0.csv")).expect(201)).body.data.import;
    expect(second.superseded_import_ids).toEqual([first.id]);
    expect(await ledger()).toEqual({ "": { lines: 5, billed: "1.41320012" } });
    // Another billing period of the same account, and another account: nothing superseded.
    const november = focusCsvText([
      {
        BillingAccountId: "111111111111",
        BillingPeriodStart: "2026-11-01T00:00:00Z",
        BillingPeriodEnd: "2026-12-01T00:00:00Z",
        ChargePeriodStart: "2026-11-02T00:00:00Z",
        ChargePeriodEnd: "2026-11-03T00:00:00Z",
        BilledCost: "7",
      },
    ]);
    expect((await upload(november).expect(201)).body.data.import.superseded_import_ids).toEqual([]);
    expect((await upload(fixture("azure-focus-1.2.csv")).expect(201)).body.data.import.superseded_import_ids).toEqual([]);
    expect((await ledger())[""].lines).toBe(9);
    // A restatement of October: the second import's October lines go; November and Azure stay.
    const restated = focusCsvText([{ BillingAccountId: "111111111111", BilledCost: "100" }]);
    const third = (await upload(restated).expect(201)).body.data.import;
    expect(third.superseded_import_ids).toEqual([second.id]);
    expect(await ledger()).toEqual({ "": { lines: 5, billed: "111.108" } });
  });

  test("all or nothing: a bad row after thousands of good ones is a 400 naming row and column, and nothing is stored", async () => {
    const before = await ledger();
    const rows = Array.from({ length: 4500 }, (_, i) => ({ BilledCost: i === 4321 ? "12,50" : "0.01" }));
    const res = await upload(focusCsvText(rows));
    expectError(res, 400, /^Invalid FOCUS file: Row 4322, column BilledCost: "12,50" is not a decimal$/);
    expect(await ledger()).toEqual(before);
    expect(await ctx.prisma.spendImport.count({ where: { organizationId: org.organization.id } })).toBe(0);
  });

  test("400 naming a missing required column", async () => {
    expectError(
      await upload(focusCsvText([{ ChargeCategory: undefined }])),
      400,
      /^Invalid FOCUS file: Missing required column ChargeCategory \(FOCUS 1\.0\)$/,
    );
  });

  test("gzip CSV and Parquet bodies", async () => {
    const gz = await upload(gzipSync(fixture("gcp-focus-1.3.csv")), { encoding: "gzip" }).expect(201);
    expect(gz.body.data.import).toMatchObject({
      focus_version: "1.3",
      rows: 3,
      totals: [{ currency: "USD", billed_cost: "0.0498456789", effective_cost: "0.0498456789" }],
    });
    const pq = await upload(Buffer.from(focusParquet(50)), { type: "application/vnd.apache.parquet" }).expect(201);
    expect(pq.body.data.import).toMatchObject({ focus_version: "1.2", rows: 50, billing_account_ids: ["pq-acct"] });
  });

  test("415 for other media types and encodings", async () => {
    expectError(await upload("{}", { type: "text/plain" }), 415);
    // JSON is an import session's manifest: without session (and a dataFiles array) a 400.
    expectError(await upload("{}", { type: "application/json" }), 400);
    expectError(await upload(gzipSync(fixture("aws-focus-1.0.csv")), { encoding: "br" }), 415);
    expectError(await upload(Buffer.from(focusParquet(2)), { type: "application/vnd.apache.parquet", encoding: "gzip" }), 415);
  });

  test("DELETE removes the import and its lines (204), then 404; the list is paginated, newest first", async () => {
    const a = (await upload(fixture("aws-focus-1.0.csv")).expect(201)).body.data.import;
    const b = (await upload(fixture("azure-focus-1.2.csv")).expect(201)).body.data.import;
    const page1 = await request(ctx.app).get(`${base()}/imports?limit=1`).set("Authorization", `Bearer ${org.token}`).expect(200);
    expect(page1.body.data.items.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const page2 = await request(ctx.app)
      .get(`${base()}/imports?limit=1&cursor=${page1.body.data.next_cursor}`)
      .set("Authorization", `Bearer ${org.token}`)
      .expect(200);
    expect(page2.body.data).toEqual({ items: [a], next_cursor: null });
    await request(ctx.app).delete(`${base()}/imports/${a.id}`).set("Authorization", `Bearer ${admin}`).expect(204);
    expect(await ledger()).toEqual({ "": { lines: 3, billed: "4.108" } });
    expectError(await request(ctx.app).get(`${base()}/imports/${a.id}`).set("Authorization", `Bearer ${org.token}`), 404);
    expectError(await request(ctx.app).delete(`${base()}/imports/${a.id}`).set("Authorization", `Bearer ${org.token}`), 404);
  });
});

describe("who may import and manage the rules", () => {
  test("owners and admins may; members and viewers get 403 and nothing is stored", async () => {
    await upload(fixture("aws-focus-1.0.csv"), { token: admin }).expect(201);
    for (const token of [member, viewer]) {
      expectError(await upload(fixture("aws-focus-1.0.csv"), { token }), 403);
      expectError(await request(ctx.app).get(`${base()}/imports`).set("Authorization", `Bearer ${token}`), 403);
      expectError(await request(ctx.app).get(`${base()}/allocation-rules`).set("Authorization", `Bearer ${token}`), 403);
      expectError(await putRules([], token), 403);
    }
  });

  test("another organization's tenant in a rule is a 400; another organization's imports are out of reach", async () => {
    const other = await signUp(ctx, { company: "Other" });
    expectError(await putRules([{ tenant_id: other.tenant.id }]), 400, /rules\.tenant_id/);
    expectError(await upload(fixture("aws-focus-1.0.csv"), { o: other }), 403);
  });

  test("a body over SPEND_IMPORT_MAX_BYTES is a 413", async () => {
    const small = await createTestContext({ SPEND_IMPORT_MAX_BYTES: "1000" });
    try {
      const owner = await signUp(small, { company: "Small" });
      const res = await request(small.app)
        .post(`/api/v1/organizations/${owner.organization.id}/spend/imports`)
        .set("Authorization", `Bearer ${owner.token}`)
        .set("Content-Type", "text/csv")
        .send(fixture("aws-focus-1.0.csv"));
      expectError(res, 413, /SPEND_IMPORT_MAX_BYTES/);
      expect(await small.prisma.spendLine.count()).toBe(0);

      // Without a Content-Length (chunked), the limit is found while receiving: still a 413 that
      // reaches the client, and no temporary file left behind.
      const tmp = mkdtempSync(join(os.tmpdir(), "spend-import-test-"));
      jest.spyOn(os, "tmpdir").mockReturnValue(tmp);
      const server = createServer(small.app);
      try {
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest({
            host: "127.0.0.1",
            port: (server.address() as AddressInfo).port,
            method: "POST",
            path: `/api/v1/organizations/${owner.organization.id}/spend/imports`,
            headers: { Authorization: `Bearer ${owner.token}`, "Content-Type": "text/csv", "Transfer-Encoding": "chunked" },
          });
          req.on("response", (r) => {
            let body = "";
            r.setEncoding("utf8");
            r.on("data", (chunk: string) => (body += chunk));
            r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
          });
          req.on("error", reject);
          const file = fixture("aws-focus-1.0.csv");
          req.write(file.subarray(0, 600));
          setTimeout(() => req.end(file.subarray(600)), 50);
        });
        expect(answer.status).toBe(413);
        expect(answer.body).toMatch(/SPEND_IMPORT_MAX_BYTES/);
        expect(readdirSync(tmp)).toEqual([]);
        expect(await small.prisma.spendLine.count()).toBe(0);
      } finally {
        jest.restoreAllMocks();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        rmSync(tmp, { recursive: true, force: true });
      }
    } finally {
      await small.close();
    }
  });
});

describe("an upload in progress holds no database connection", () => {
  let server: Server;
  let port: number;
  let tmp: string;

  beforeAll(async () => {
    server = createServer(ctx.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(async () => {
    await clearImports();
    // The app spools under os.tmpdir(): a directory of the test's own shows what it leaves behind
    // (Jest's process.env is the sandbox's copy, so TMPDIR cannot be set for the app from here).
    tmp = mkdtempSync(join(os.tmpdir(), "spend-import-test-"));
    jest.spyOn(os, "tmpdir").mockReturnValue(tmp);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(tmp, { recursive: true, force: true });
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function within<T>(ms: number, work: PromiseLike<T>): Promise<T | "no answer"> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"no answer">((resolve) => (timer = setTimeout(() => resolve("no answer"), ms)));
    try {
      return await Promise.race([Promise.resolve(work), late]);
    } finally {
      clearTimeout(timer);
    }
  }
  async function waitFor(check: () => boolean, ms = EVENTUALLY_TIMEOUT_MS): Promise<void> {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error("timed out waiting");
      await sleep(20);
    }
  }
  const spooled = () => readdirSync(tmp, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

  /** A raw upload announcing the whole file's length; the test writes the bytes itself. */
  function startUpload(length: number) {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: `${base()}/imports`,
      headers: { Authorization: `Bearer ${org.token}`, "Content-Type": "text/csv", "Content-Length": length },
    });
    const answer = new Promise<{ status: number; body: { data: { import: { rows: number } } } }>((resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on("error", reject);
    });
    return { req, answer };
  }

  const stalledFile = () => Buffer.from(focusCsvText(Array.from({ length: 3000 }, () => ({ BillingAccountId: "slow-acct", BilledCost: "0.01" }))));

  test("while a client stalls mid-upload, the list and another import are answered; then the upload completes", async () => {
    const file = stalledFile();
    const half = Math.floor(file.length / 2);
    const upload1 = startUpload(file.length);
    upload1.req.write(file.subarray(0, half));
    try {
      // The server is receiving the upload (spooling it) and the client stalls.
      await waitFor(() => spooled().length === 1);
      // Generous bounds: a server blocked by the stalled upload would never answer.
      const list = await within(15_000, request(ctx.app).get(`${base()}/imports`).set("Authorization", `Bearer ${org.token}`));
      expect(list).not.toBe("no answer");
      expect(list).toMatchObject({ status: 200 });
      const other = await within(15_000, upload(fixture("aws-focus-1.0.csv")));
      expect(other).not.toBe("no answer");
      expect(other).toMatchObject({ status: 201 });
    } finally {
      upload1.req.end(file.subarray(half));
    }
    const done = await upload1.answer;
    expect(done.status).toBe(201);
    expect(done.body.data.import.rows).toBe(3000);
    expect(await ledger()).toEqual({ "": { lines: 3005, billed: "31.41320012" } });
    expect(spooled()).toEqual([]);
  });

  test("an aborted upload leaves no temporary file and stores nothing", async () => {
    const file = stalledFile();
    const upload1 = startUpload(file.length);
    upload1.answer.catch(() => undefined);
    upload1.req.write(file.subarray(0, Math.floor(file.length / 2)));
    await waitFor(() => spooled().length === 1);
    const [entry] = spooled();
    expect(statSync(join(entry.parentPath, entry.name)).mode & 0o777).toBe(0o600);
    upload1.req.destroy();
    await waitFor(() => readdirSync(tmp).length === 0);
    expect(await ctx.prisma.spendLine.count({ where: { organizationId: org.organization.id } })).toBe(0);
    expect(await ctx.prisma.spendImport.count({ where: { organizationId: org.organization.id } })).toBe(0);
    await request(ctx.app).get(`${base()}/imports`).set("Authorization", `Bearer ${org.token}`).expect(200);
  });
});
