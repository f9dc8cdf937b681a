// Showback statements (docs/api.md, "Statements"): a month's cost per tenant or per dimension value,
// computed from the roll-ups when created and stored; sections, reconciliation, roles, validation.
import { parse } from "csv-parse/sync";
import request from "supertest";
import { Decimal } from "@cloudcost/decimal";
import { statementPdf } from "../src/statements/pdf";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, type SignedUp, signUp } from "./helpers/identity";
import { dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

/** The strings the text operators of an uncompressed PDF show, in order (hex strings decoded, a TJ array's pieces joined). */
function pdfTexts(file: string): string[] {
  const texts: string[] = [];
  const hex = (text: string) => Buffer.from(text, "hex").toString("latin1");
  for (const match of file.matchAll(/\[((?:<[0-9a-fA-F]*>\s*-?[\d.]*\s*)+)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
    if (match[2] !== undefined) texts.push(hex(match[2]));
    else texts.push([...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((piece) => hex(piece[1])).join(""));
  }
  return texts;
}

const ZERO_SECTIONS = { usage: [], shared: [], commitment_fees: [], credits: [], tax: [], adjustments: [], corrections: [] };
const plain = (description: string, amount: string) => ({ description, source: null, method: null, ratio: null, amount });

describe("by tenant", () => {
  let owner: SignedUp;
  let org: string;
  let tenantA: string;
  let tenantB: string;
  const create = (body: object, token = owner.token) => request(ctx.app).post(`/api/v1/organizations/${org}/statements`).set(bearer(token)).send(body);

  beforeAll(async () => {
    owner = await signUp(ctx, { company: "Statements Ltd" });
    org = owner.organization.id;
    tenantA = owner.tenant.id;
    tenantB = (await request(ctx.app).post(`/api/v1/organizations/${org}/tenants`).set(bearer(owner.token)).send({ name: "Team B" }).expect(201)).body.data.id;
    const usage = (tenant: string | null, day: string, effective: string, billed: string, more: object = {}) => ({
      ...dayLine(tenant as string, day, effective, { serviceName: "VMs", ...more }),
      tenantId: tenant,
      billedCost: billed,
    });
    await seedSpend(ctx, org, [
      // Tenant A, October: usage VMs 100 (billed 120), Athena 50.0000000001, a Savings Plan fee 30,
      // a credit -10, tax 8.5, an adjustment 2 and a correction of its VMs usage -5.
      usage(tenantA, "2026-10-03", "100", "120"),
      usage(tenantA, "2026-10-04", "50.0000000001", "50.0000000001", { serviceName: "Athena" }),
      usage(tenantA, "2026-10-01", "30", "30", { serviceName: "Savings Plan", chargeCategory: "Purchase" }),
      usage(tenantA, "2026-10-31", "-10", "-10", { chargeCategory: "Credit" }),
      usage(tenantA, "2026-10-31", "8.5", "8.5", { serviceName: "Tax", chargeCategory: "Tax" }),
      usage(tenantA, "2026-10-15", "2", "2", { chargeCategory: "Adjustment" }),
      usage(tenantA, "2026-10-20", "-5", "-5", { chargeClass: "Correction" }),
      // Tenant B: usage VMs 40 and a correction of tax 1.25.
      usage(tenantB, "2026-10-10", "40", "40"),
      usage(tenantB, "2026-10-11", "1.25", "1.25", { serviceName: "Tax", chargeCategory: "Tax", chargeClass: "Correction" }),
      // Without a tenant: 7.75 (the unallocated rest).
      usage(null, "2026-10-12", "7.75", "7.75"),
      // Outside the statement: November, and another currency.
      usage(tenantA, "2026-11-01", "1000", "1000"),
      usage(tenantA, "2026-10-05", "500", "500", { currency: "EUR" }),
    ]);
  });

  it("computes each tenant's sections, totals and the reconciliation (201), stored and listed", async () => {
    const res = await create({ period: "2026-10", by: "tenant", currency: "USD" });
    expect(res.status).toBe(201);
    const statement = res.body.data;
    // A: 100 + 50.0000000001 + 30 - 10 + 8.5 + 2 - 5 = 175.5000000001 (usage VMs is the roll-up's 95 with the -5 correction taken out)
    // B: 40 + 1.25 = 41.25; unallocated 7.75; bill 175.5000000001 + 41.25 + 7.75 = 224.5000000001.
    expect(statement).toMatchObject({
      number: "2026-10-0001",
      period: "2026-10",
      by: "tenant",
      metric: "effective_cost",
      currency: "USD",
      status: "draft",
      finalized_at: null,
      supersedes: null,
      changes: null,
      recipients: [
        { value: tenantA, total: "175.5000000001" },
        { value: tenantB, total: "41.25" },
      ].sort((a, b) => (a.value < b.value ? -1 : 1)),
      reconciliation: { bill_total: "224.5000000001", allocated_total: "216.7500000001", unallocated_total: "7.75", difference: "0" },
    });
    const a = await request(ctx.app)
      .get(`/api/v1/organizations/${org}/statements/${statement.id}/recipients/${encodeURIComponent(tenantA)}`)
      .set(bearer(owner.token));
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({
      statement_id: statement.id,
      organization: { id: org, name: "Statements Ltd" },
      number: "2026-10-0001",
      status: "draft",
      recipient: tenantA,
      total: "175.5000000001",
      sections: {
        ...ZERO_SECTIONS,
        usage: [plain("Athena", "50.0000000001"), plain("VMs", "100")],
        commitment_fees: [plain("Savings Plan", "30")],
        credits: [plain("VMs", "-10")],
        tax: [plain("Tax", "8.5")],
        adjustments: [plain("VMs", "2")],
        corrections: [plain("Usage: VMs", "-5")],
      },
    });
    const b = await request(ctx.app).get(`/api/v1/organizations/${org}/statements/${statement.id}/recipients/${tenantB}`).set(bearer(owner.token));
    expect(b.body.data.sections).toEqual({ ...ZERO_SECTIONS, usage: [plain("VMs", "40")], corrections: [plain("Tax: Tax", "1.25")] });

    // Billed cost: A's VMs are 120, so A is 195.5000000001 and the bill 244.5000000001.
    const billed = await create({ period: "2026-10", by: "tenant", metric: "billed_cost", currency: "USD" });
    expect(billed.status).toBe(201);
    expect(billed.body.data.number).toBe("2026-10-0002");
    expect(billed.body.data.reconciliation).toEqual({
      bill_total: "244.5000000001",
      allocated_total: "236.7500000001",
      unallocated_total: "7.75",
      difference: "0",
    });

    // Stored: a later line of October changes neither (a snapshot).
    await seedSpend(ctx, org, [{ ...dayLine(tenantA, "2026-10-06", "999"), serviceName: "VMs" }]);
    const got = await request(ctx.app).get(`/api/v1/organizations/${org}/statements/${statement.id}`).set(bearer(owner.token));
    expect(got.body.data).toEqual(statement);
    const list = await request(ctx.app).get(`/api/v1/organizations/${org}/statements`).set(bearer(owner.token));
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((item: { number: string }) => item.number)).toEqual(["2026-10-0002", "2026-10-0001"]);
    expect(list.body.data.items[1]).toEqual(statement);
  });

  it("refuses an unknown dimension, a future period, one more than 36 months back and a bad currency (400 naming the field)", async () => {
    expect(expectError(await create({ period: "2026-10", by: "dimension:nope", currency: "USD" }), 400)).toMatch(/by/);
    expect(expectError(await create({ period: "2099-01", by: "tenant", currency: "USD" }), 400)).toMatch(/period/);
    expect(expectError(await create({ period: "2020-01", by: "tenant", currency: "USD" }), 400)).toMatch(/period/);
    expect(expectError(await create({ period: "2026-13", by: "tenant", currency: "USD" }), 400)).toMatch(/period/);
    expect(expectError(await create({ period: "2026-10", by: "tenant", currency: "usd" }), 400)).toMatch(/currency/);
    expect(expectError(await create({ period: "2026-10", by: "team", currency: "USD" }), 400)).toMatch(/by/);
  });

  it("is owner/admin only; another organization's statement is a 404", async () => {
    const statement = (await create({ period: "2026-10", by: "tenant", currency: "USD" }).expect(201)).body.data;
    const admin = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "admin" });
    const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member", tenantIds: [tenantA] });
    const viewer = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "viewer", tenantIds: [tenantA] });
    expect((await create({ period: "2026-10", by: "tenant", currency: "USD" }, admin.token)).status).toBe(201);
    for (const user of [member, viewer]) {
      expectError(await create({ period: "2026-10", by: "tenant", currency: "USD" }, user.token), 403);
      expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/statements`).set(bearer(user.token)), 403);
      expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/statements/${statement.id}`).set(bearer(user.token)), 403);
    }
    const other = await signUp(ctx);
    expectError(await request(ctx.app).get(`/api/v1/organizations/${other.organization.id}/statements/${statement.id}`).set(bearer(other.token)), 404);
    expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/statements/${statement.id}/recipients/nobody`).set(bearer(owner.token)), 404);
  });
});

describe("by dimension", () => {
  let owner: SignedUp;
  let org: string;
  const shared = (description: string, source: string | null, method: string, ratio: string | null, amount: string) => ({
    description,
    source,
    method,
    ratio,
    amount,
  });

  beforeAll(async () => {
    owner = await signUp(ctx, { company: "Shared Statements Ltd" });
    org = owner.organization.id;
    const tenant = owner.tenant.id;
    const team = (day: string, cost: string, value: string | null, more: object = {}) =>
      dayLine(tenant, day, cost, { serviceName: "VMs", tags: value ? { team: value } : {}, ...more });
    await seedSpend(ctx, org, [
      // web: usage VMs 335 with a correction of -20 and a credit of -15: direct 300 that day.
      team("2026-10-02", "335", "web"),
      team("2026-10-02", "-20", "web", { chargeClass: "Correction" }),
      team("2026-10-02", "-15", "web", { chargeCategory: "Credit" }),
      // data: usage Athena 100.
      team("2026-10-02", "100", "data", { serviceName: "Athena" }),
      // platform: 80, shared by everyone's direct cost that day (300 : 100 -> 60 / 20).
      team("2026-10-02", "80", "platform"),
      // unallocated: Support 40 (usage, shared 75 / 25 -> web 30, data 10) and tax 12 (not shared: the rest).
      team("2026-10-02", "40", null, { serviceName: "Support" }),
      team("2026-10-02", "12", null, { serviceName: "Tax", chargeCategory: "Tax" }),
    ]);
    const put = await request(ctx.app)
      .put(`/api/v1/organizations/${org}/dimensions/team`)
      .set(bearer(owner.token))
      .send({
        name: "Team",
        rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
        splits: [
          { source: "platform", targets: "*", method: "proportional" },
          { source: null, targets: ["web", "data"], method: "fixed", percentages: { web: "75", data: "25" }, charge_categories: ["Usage"] },
        ],
      });
    expect(put.status).toBe(200);
    await ctx.deps.dimensionApply.runNow();
  });

  it("lists each value's direct, shared in and shared out lines; the unallocated rest is no recipient; the invariant holds", async () => {
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${org}/statements`)
      .set(bearer(owner.token))
      .send({ period: "2026-10", by: "dimension:team", currency: "USD" });
    expect(res.status).toBe(201);
    // web 335 - 15 - 20 + 60 + 30 = 390; data 100 + 20 + 10 = 130; platform 80 - 80 = 0 (a source is a recipient);
    // unallocated 40 + 12 - 40 = 12; bill 335 - 20 - 15 + 100 + 80 + 40 + 12 = 532 = 390 + 130 + 0 + 12.
    expect(res.body.data).toMatchObject({
      number: "2026-10-0001",
      by: "dimension:team",
      recipients: [
        { value: "data", total: "130" },
        { value: "platform", total: "0" },
        { value: "web", total: "390" },
      ],
      reconciliation: { bill_total: "532", allocated_total: "520", unallocated_total: "12", difference: "0" },
    });
    const id = res.body.data.id;
    const recipient = (value: string) =>
      request(ctx.app)
        .get(`/api/v1/organizations/${org}/statements/${id}/recipients/${encodeURIComponent(value)}`)
        .set(bearer(owner.token));
    const web = (await recipient("web")).body.data;
    const platformSplit = "Shared from platform";
    expect(web.sections).toEqual({
      ...ZERO_SECTIONS,
      usage: [plain("VMs", "335")],
      shared: [shared(platformSplit, "platform", "proportional", "0.75", "60"), shared("Shared from unallocated", null, "fixed", "0.75", "30")].sort((a, b) =>
        (a.source ?? "") < (b.source ?? "") ? -1 : 1,
      ),
      credits: [plain("VMs", "-15")],
      corrections: [plain("Usage: VMs", "-20")],
    });
    expect(web.total).toBe("390");
    const data = (await recipient("data")).body.data;
    expect(data.sections.shared).toEqual([
      shared("Shared from unallocated", null, "fixed", "0.25", "10"),
      shared(platformSplit, "platform", "proportional", "0.25", "20"),
    ]);
    expect(data.total).toBe("130");
    const platform = (await recipient("platform")).body.data;
    expect(platform.sections).toEqual({
      ...ZERO_SECTIONS,
      usage: [plain("VMs", "80")],
      shared: [shared("Shared out", "platform", "proportional", null, "-80")],
    });
    expect(platform.total).toBe("0");
    expectError(await recipient(""), 404);
    // The same month by team through the spend query (splits applied as it reads): the same totals.
    const query = await request(ctx.app)
      .get(`/api/v1/organizations/${org}/spend?start=2026-10-01&end=2026-11-01&granularity=none&group_by=dimension:team`)
      .set(bearer(owner.token));
    expect(query.status).toBe(200);
    const byValue = Object.fromEntries(
      query.body.data.rows.map((row: { group: Record<string, string | null>; cost: string }) => [row.group["dimension:team"] ?? "", row.cost]),
    );
    expect(byValue).toMatchObject({ web: "390", data: "130", "": "12" });

    // The CSV: one row per line in section order, then the total; its amounts add up to the total.
    const csv = await request(ctx.app).get(`/api/v1/organizations/${org}/statements/${id}/recipients/web.csv`).set(bearer(owner.token));
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="statement-2026-10-0001-web.csv"');
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      { section: "usage", description: "VMs", source: "", method: "", ratio: "", amount: "335" },
      { section: "shared", description: "Shared from unallocated", source: "", method: "fixed", ratio: "0.75", amount: "30" },
      { section: "shared", description: "Shared from platform", source: "platform", method: "proportional", ratio: "0.75", amount: "60" },
      { section: "credits", description: "VMs", source: "", method: "", ratio: "", amount: "-15" },
      { section: "corrections", description: "Usage: VMs", source: "", method: "", ratio: "", amount: "-20" },
      { section: "total", description: "Total", source: "", method: "", ratio: "", amount: "390" },
    ]);
    const sum = rows.slice(0, -1).reduce((total, row) => total.plus(row.amount), new Decimal(0));
    expect(sum.toFixed()).toBe("390");
    expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/statements/${id}/recipients/nobody.csv`).set(bearer(owner.token)), 404);

    // The PDF: one page, its content stream written uncompressed, so its text is read back here from
    // the text operators (pdfkit writes strings as hex, split where it kerns).
    const pdf = await request(ctx.app)
      .get(`/api/v1/organizations/${org}/statements/${id}/recipients/web.pdf`)
      .set(bearer(owner.token))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const file = (pdf.body as Buffer).toString("latin1");
    expect(file.startsWith("%PDF-")).toBe(true);
    expect(file).toMatch(/\/Type \/Pages\s*\/Count 1\b/);
    expect(file).not.toMatch(/FlateDecode/);
    const texts = pdfTexts(file);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Statement 2026-10-0001",
        "Shared Statements Ltd",
        "2026-10",
        "draft",
        "web (dimension:team)",
        "Usage",
        "Shared costs",
        "Total",
        "390 USD",
      ]),
    );
    expect(texts[texts.indexOf("Total") + 1]).toBe("390 USD");
  });
});

describe("finalize, delete, supersede and numbering", () => {
  let owner: SignedUp;
  let org: string;
  let tenantA: string;
  let tenantB: string;
  const path = (rest = "") => `/api/v1/organizations/${org}/statements${rest}`;
  const create = () => request(ctx.app).post(path()).set(bearer(owner.token)).send({ period: "2026-09", by: "tenant", currency: "USD" });

  beforeAll(async () => {
    owner = await signUp(ctx, { company: "Final Statements Ltd" });
    org = owner.organization.id;
    tenantA = owner.tenant.id;
    tenantB = (await request(ctx.app).post(`/api/v1/organizations/${org}/tenants`).set(bearer(owner.token)).send({ name: "B" }).expect(201)).body.data.id;
    await seedSpend(ctx, org, [dayLine(tenantA, "2026-09-10", "10"), dayLine(tenantB, "2026-09-11", "5")]);
  });

  it("finalizes a draft once (409 after), never deletes a final one, deletes a draft (204), and a new run supersedes the last final one with each recipient's change", async () => {
    const first = (await create().expect(201)).body.data;
    expect(first).toMatchObject({ number: "2026-09-0001", status: "draft", supersedes: null });
    const final = await request(ctx.app)
      .post(path(`/${first.id}/finalize`))
      .set(bearer(owner.token));
    expect(final.status).toBe(200);
    expect(final.body.data).toMatchObject({ id: first.id, status: "final", finalized_at: expect.any(String), recipients: first.recipients });
    expectError(
      await request(ctx.app)
        .post(path(`/${first.id}/finalize`))
        .set(bearer(owner.token)),
      409,
    );
    expectError(
      await request(ctx.app)
        .delete(path(`/${first.id}`))
        .set(bearer(owner.token)),
      409,
    );
    expectError(await request(ctx.app).post(path("/stm_nothing/finalize")).set(bearer(owner.token)), 404);
    expectError(await request(ctx.app).delete(path("/stm_nothing")).set(bearer(owner.token)), 404);

    // A later import: A +2.5 and a third tenant's 1. The final statement stays as it was.
    const tenantC = (await request(ctx.app).post(`/api/v1/organizations/${org}/tenants`).set(bearer(owner.token)).send({ name: "C" }).expect(201)).body.data.id;
    await seedSpend(ctx, org, [dayLine(tenantA, "2026-09-20", "2.5"), dayLine(tenantC, "2026-09-21", "1")]);
    expect(
      (
        await request(ctx.app)
          .get(path(`/${first.id}`))
          .set(bearer(owner.token))
      ).body.data,
    ).toEqual(final.body.data);

    const second = (await create().expect(201)).body.data;
    expect(second.number).toBe("2026-09-0002");
    expect(second.supersedes).toBe(first.id);
    const change = (value: string, previous_total: string, total: string, difference: string) => ({ value, previous_total, total, difference });
    expect(second.changes).toEqual(
      [change(tenantA, "10", "12.5", "2.5"), change(tenantB, "5", "5", "0"), change(tenantC, "0", "1", "1")].sort((a, b) => (a.value < b.value ? -1 : 1)),
    );
    expect(second.reconciliation).toEqual({ bill_total: "18.5", allocated_total: "18.5", unallocated_total: "0", difference: "0" });
    // A draft goes (204); numbers stay without gaps: the next statement of the period takes the number after the highest left.
    expect(
      (
        await request(ctx.app)
          .delete(path(`/${second.id}`))
          .set(bearer(owner.token))
      ).status,
    ).toBe(204);
    expectError(
      await request(ctx.app)
        .get(path(`/${second.id}`))
        .set(bearer(owner.token)),
      404,
    );
    // Another metric has nothing to supersede.
    const billed = await request(ctx.app)
      .post(path())
      .set(bearer(owner.token))
      .send({ period: "2026-09", by: "tenant", metric: "billed_cost", currency: "USD" });
    expect(billed.body.data).toMatchObject({ number: "2026-09-0002", supersedes: null, changes: null });
  });

  it("numbers concurrent creations apart", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => request(ctx.app).post(path()).set(bearer(owner.token)).send({ period: "2026-08", by: "tenant", currency: "USD" })),
    );
    expect(results.map((res) => res.status)).toEqual(Array(6).fill(201));
    expect(results.map((res) => res.body.data.number).sort()).toEqual([
      "2026-08-0001",
      "2026-08-0002",
      "2026-08-0003",
      "2026-08-0004",
      "2026-08-0005",
      "2026-08-0006",
    ]);
  });
});

describe("the PDF", () => {
  it("stays on one page with more lines than it holds, and always shows the total", async () => {
    const usage = Array.from({ length: 300 }, (_, i) => plain(`Service ${i}`, "1"));
    const file = (
      await statementPdf({
        statement_id: "stm_1",
        organization: { id: "org_1", name: "Many Lines Ltd" },
        number: "2026-10-0001",
        period: "2026-10",
        by: "tenant",
        metric: "effective_cost",
        currency: "USD",
        status: "final",
        recipient: "ten_1",
        sections: { ...ZERO_SECTIONS, usage, tax: [plain("Tax", "3")] },
        total: "303",
      })
    ).toString("latin1");
    expect(file).toMatch(/\/Type \/Pages\s*\/Count 1\b/);
    const texts = pdfTexts(file);
    expect(texts).toContain("final");
    // The tax section after 300 usage lines still has its title and line.
    expect(texts.slice(texts.indexOf("Tax"), texts.indexOf("Tax") + 3)).toEqual(["Tax", "Tax", "3"]);
    expect(texts.some((text) => /^\.\.\. \d+ more lines \(see the CSV\)$/.test(text))).toBe(true);
    expect(texts[texts.indexOf("Total") + 1]).toBe("303 USD");
  });
});

describe("a value that needs encoding", () => {
  it("is reached URL-encoded, in JSON, CSV and PDF", async () => {
    const owner = await signUp(ctx, { company: "Encoded Ltd" });
    const org = owner.organization.id;
    const value = 'ops/eu west, "=1"';
    await seedSpend(ctx, org, [dayLine(owner.tenant.id, "2026-10-05", "7.5", { serviceName: "VMs", tags: { team: value } })]);
    await request(ctx.app)
      .put(`/api/v1/organizations/${org}/dimensions/team`)
      .set(bearer(owner.token))
      .send({ name: "Team", rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }] })
      .expect(200);
    await ctx.deps.dimensionApply.runNow();
    const statement = (
      await request(ctx.app)
        .post(`/api/v1/organizations/${org}/statements`)
        .set(bearer(owner.token))
        .send({ period: "2026-10", by: "dimension:team", currency: "USD" })
        .expect(201)
    ).body.data;
    expect(statement.recipients).toEqual([{ value, total: "7.5" }]);
    const base = `/api/v1/organizations/${org}/statements/${statement.id}/recipients/${encodeURIComponent(value)}`;
    const json = await request(ctx.app).get(base).set(bearer(owner.token));
    expect(json.status).toBe(200);
    expect(json.body.data).toMatchObject({ recipient: value, total: "7.5" });
    const csv = await request(ctx.app).get(`${base}.csv`).set(bearer(owner.token));
    expect(csv.status).toBe(200);
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="statement-2026-10-0001-ops_eu_west_1_.csv"');
    expect(parse(csv.text, { columns: true })).toEqual([
      { section: "usage", description: "VMs", source: "", method: "", ratio: "", amount: "7.5" },
      { section: "total", description: "Total", source: "", method: "", ratio: "", amount: "7.5" },
    ]);
    const pdf = await request(ctx.app).get(`${base}.pdf`).set(bearer(owner.token));
    expect(pdf.status).toBe(200);
  });
});
