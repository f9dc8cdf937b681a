// Reading spend (docs/api.md, "Spend: usage, queries, lines, export"): the roll-up and the lines give the same answers, periods,
// grouping, ordering, filters in both array forms, the range rules and who sees which tenants.
import request from "supertest";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { insertLines, type LedgerLineInput } from "../src/spend/lines-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let org: SignedUp;
let tenant2: string;
let member: string;

const line = (overrides: Partial<LedgerLineInput>): LedgerLineInput => ({
  tenantId: null,
  source: "focus_import",
  chargePeriodStart: "2026-10-01T00:00:00.000Z",
  chargePeriodEnd: "2026-10-02T00:00:00.000Z",
  chargeCategory: "Usage",
  provider: "AWS",
  serviceName: "Amazon EC2",
  region: "us-east-1",
  billedCost: "1",
  effectiveCost: "0.5",
  listCost: "2",
  currency: "USD",
  priced: true,
  ...overrides,
});

beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx);
  const created = await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/tenants`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({ name: "Two" });
  tenant2 = created.body.data.id;
  member = (await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member", tenantIds: [org.tenant.id] })).token;
  const t1 = org.tenant.id;
  await ctx.prisma.$transaction(
    (tx) =>
      insertLines(tx, org.organization.id, [
        line({ tenantId: t1, billedCost: "10.5", resourceId: "i-1", tags: { team: "web" } }),
        line({
          tenantId: t1,
          chargePeriodStart: "2026-10-01T18:00:00.000Z",
          serviceName: "Amazon S3",
          billedCost: "3.25",
          resourceId: "b-1",
          tags: { team: "data" },
        }),
        line({ tenantId: t1, chargePeriodStart: "2026-10-02T06:00:00.000Z", billedCost: "4", resourceId: "i-1", tags: { team: "web" } }),
        line({ tenantId: t1, chargePeriodStart: "2026-11-03T00:00:00.000Z", billedCost: "7", resourceId: "i-2" }),
        line({ tenantId: t1, chargePeriodStart: "2026-10-02T00:00:00.000Z", currency: "EUR", billedCost: "2", serviceName: "Amazon EC2" }),
        line({
          tenantId: t1,
          source: "usage",
          serviceName: "Model usage",
          model: "gpt-4o",
          chargePeriodStart: "2026-10-02T12:00:00.000Z",
          billedCost: null,
          effectiveCost: null,
          listCost: null,
          currency: null,
          priced: false,
          unpricedReason: "no_pricing_label",
        }),
        line({ tenantId: tenant2, billedCost: "100", serviceName: "Amazon RDS" }),
        line({ tenantId: null, billedCost: "1000", serviceName: "Support", subAccountId: "999" }),
      ]),
    TRANSACTION_OPTIONS,
  );
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const tenantSpend = (query: string, token = org.token, tenant = org.tenant.id) =>
  request(ctx.app).get(`/api/v1/tenant/spend${query}`).set("Authorization", `Bearer ${token}`).set("X-Service-Tenant-ID", tenant);
const orgSpend = (query: string, token = org.token) =>
  request(ctx.app).get(`/api/v1/organizations/${org.organization.id}/spend${query}`).set("Authorization", `Bearer ${token}`);

describe("GET /api/v1/tenant/spend", () => {
  it("answers days by service, ordered by period, cost descending, then group; unpriced lines counted apart", async () => {
    const res = await tenantSpend("?start=2026-10-01&end=2026-10-03&group_by=service_name");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      start: "2026-10-01T00:00:00.000Z",
      end: "2026-10-03T00:00:00.000Z",
      granularity: "day",
      metric: "billed_cost",
      group_by: ["service_name"],
      rows: [
        {
          period_start: "2026-10-01T00:00:00.000Z",
          period_end: "2026-10-02T00:00:00.000Z",
          group: { service_name: "Amazon EC2" },
          currency: "USD",
          cost: "10.5",
        },
        {
          period_start: "2026-10-01T00:00:00.000Z",
          period_end: "2026-10-02T00:00:00.000Z",
          group: { service_name: "Amazon S3" },
          currency: "USD",
          cost: "3.25",
        },
        { period_start: "2026-10-02T00:00:00.000Z", period_end: "2026-10-03T00:00:00.000Z", group: { service_name: "Amazon EC2" }, currency: "USD", cost: "4" },
        { period_start: "2026-10-02T00:00:00.000Z", period_end: "2026-10-03T00:00:00.000Z", group: { service_name: "Amazon EC2" }, currency: "EUR", cost: "2" },
      ],
      totals: [
        { currency: "EUR", cost: "2" },
        { currency: "USD", cost: "17.75" },
      ],
      unpriced: { lines: 1, by_reason: { no_pricing_label: 1 } },
    });
  });

  it("gives the same answer from the lines for partial days as from the roll-up for whole days", async () => {
    const whole = await tenantSpend("?start=2026-10-01&end=2026-11-01&granularity=none&metric=effective_cost&group_by=service_name");
    const partial = await tenantSpend("?start=2026-09-30T12:00:00Z&end=2026-10-31T23:59:59.999Z&granularity=none&metric=effective_cost&group_by=service_name");
    const rows = (res: request.Response) =>
      res.body.data.rows.map((row: { group: unknown; cost: string; currency: string }) => [row.group, row.currency, row.cost]);
    expect(rows(whole)).toEqual(rows(partial));
    expect(rows(whole)).toEqual([
      [{ service_name: "Amazon EC2" }, "USD", "1"],
      [{ service_name: "Amazon EC2" }, "EUR", "0.5"],
      [{ service_name: "Amazon S3" }, "USD", "0.5"],
    ]);
    // A range inside one day reads the lines only; the period is clipped to the range.
    const hours = await tenantSpend("?start=2026-10-01T12:00:00Z&end=2026-10-01T20:00:00Z");
    expect(hours.body.data.rows).toEqual([
      { period_start: "2026-10-01T12:00:00.000Z", period_end: "2026-10-01T20:00:00.000Z", group: {}, currency: "USD", cost: "3.25" },
    ]);
  });

  it("groups by month, by tag:<key> and by resource_id (read from the lines), with null for lines without a value", async () => {
    const months = await tenantSpend("?start=2026-10-01&end=2026-12-01&granularity=month&metric=list_cost");
    expect(months.body.data.rows.map((row: { period_start: string; currency: string; cost: string }) => [row.period_start, row.currency, row.cost])).toEqual([
      ["2026-10-01T00:00:00.000Z", "USD", "6"],
      ["2026-10-01T00:00:00.000Z", "EUR", "2"],
      ["2026-11-01T00:00:00.000Z", "USD", "2"],
    ]);
    const tags = await tenantSpend("?start=2026-10-01&end=2026-12-01&granularity=none&group_by=tag:team,resource_id&currency=USD");
    expect(tags.status).toBe(200);
    expect(
      tags.body.data.rows.filter((row: { currency: string }) => row.currency === "USD").map((row: { group: unknown; cost: string }) => [row.group, row.cost]),
    ).toEqual([
      [{ "tag:team": "web", resource_id: "i-1" }, "14.5"],
      [{ "tag:team": null, resource_id: "i-2" }, "7"],
      [{ "tag:team": "data", resource_id: "b-1" }, "3.25"],
    ]);
  });

  it("filters with both array forms (a,b, repeated, mixed) and by tag", async () => {
    const forms = [
      "?service_name=Amazon%20S3,Amazon%20RDS",
      "?service_name=Amazon%20S3&service_name=Amazon%20RDS",
      "?service_name=Amazon%20S3,%20&service_name=Amazon%20RDS",
    ];
    for (const form of forms) {
      const res = await tenantSpend(`${form}&start=2026-10-01&end=2026-11-01&granularity=none`);
      expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "3.25" }]);
    }
    const tagged = await tenantSpend("?start=2026-10-01&end=2026-11-01&granularity=none&tag:team=web,data&region=us-east-1");
    expect(tagged.body.data.totals).toEqual([{ currency: "USD", cost: "17.75" }]);
  });

  it("defaults to the current month to now, and refuses a range over 400 days, an end before the start and tenant grouping (400)", async () => {
    const res = await tenantSpend("");
    expect(res.status).toBe(200);
    const now = new Date();
    expect(res.body.data.start).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
    expect((await tenantSpend("?start=2025-01-01&end=2026-02-06")).status).toBe(400);
    expect((await tenantSpend("?start=2025-01-01&end=2026-02-05")).status).toBe(200);
    expectError(await tenantSpend("?start=2026-10-02&end=2026-10-01"), 400, /end/);
    expectError(await tenantSpend("?group_by=tenant"), 400, /group_by/);
    expectError(await tenantSpend("?group_by=region,provider,service_name"), 400, /group_by/);
    expectError(await tenantSpend("?granularity=week"), 400, /granularity/);
    expectError(await tenantSpend("?region=a%00b"), 400, /region/);
  });
});

describe("GET /api/v1/organizations/{org_id}/spend", () => {
  it("shows owners every tenant and the unallocated lines, grouped by tenant", async () => {
    const res = await orgSpend("?start=2026-10-01&end=2026-11-01&granularity=none&group_by=tenant");
    expect(res.status).toBe(200);
    expect(res.body.data.rows.map((row: { group: unknown; currency: string; cost: string }) => [row.group, row.currency, row.cost])).toEqual([
      [{ tenant: null }, "USD", "1000"],
      [{ tenant: tenant2 }, "USD", "100"],
      [{ tenant: org.tenant.id }, "USD", "17.75"],
      [{ tenant: org.tenant.id }, "EUR", "2"],
    ]);
    const filtered = await orgSpend(`?start=2026-10-01&end=2026-11-01&granularity=none&tenant=${tenant2}&sub_account_id=999`);
    expect(filtered.body.data.totals).toEqual([]);
  });

  it("answers alike from spend_service_daily (tenant and service dimensions), from spend_daily (a region filter) and from the lines (a tag filter)", async () => {
    const range = "?start=2026-10-01&end=2026-12-01&granularity=month&group_by=tenant&group_by=service_name";
    const service = await orgSpend(range);
    const daily = await orgSpend(`${range}&region=us-east-1`);
    const lines = await orgSpend(`${range}&tag:team=web,data`);
    expect(service.status).toBe(200);
    const rows = (res: request.Response) => res.body.data.rows.map((row: { period_start: string; group: unknown; currency: string; cost: string }) => row);
    expect(rows(daily)).toEqual(rows(service));
    expect(rows(service)).toEqual([
      {
        period_start: "2026-10-01T00:00:00.000Z",
        period_end: "2026-11-01T00:00:00.000Z",
        group: { tenant: null, service_name: "Support" },
        currency: "USD",
        cost: "1000",
      },
      {
        period_start: "2026-10-01T00:00:00.000Z",
        period_end: "2026-11-01T00:00:00.000Z",
        group: { tenant: tenant2, service_name: "Amazon RDS" },
        currency: "USD",
        cost: "100",
      },
      {
        period_start: "2026-10-01T00:00:00.000Z",
        period_end: "2026-11-01T00:00:00.000Z",
        group: { tenant: org.tenant.id, service_name: "Amazon EC2" },
        currency: "USD",
        cost: "14.5",
      },
      {
        period_start: "2026-10-01T00:00:00.000Z",
        period_end: "2026-11-01T00:00:00.000Z",
        group: { tenant: org.tenant.id, service_name: "Amazon S3" },
        currency: "USD",
        cost: "3.25",
      },
      {
        period_start: "2026-10-01T00:00:00.000Z",
        period_end: "2026-11-01T00:00:00.000Z",
        group: { tenant: org.tenant.id, service_name: "Amazon EC2" },
        currency: "EUR",
        cost: "2",
      },
      {
        period_start: "2026-11-01T00:00:00.000Z",
        period_end: "2026-12-01T00:00:00.000Z",
        group: { tenant: org.tenant.id, service_name: "Amazon EC2" },
        currency: "USD",
        cost: "7",
      },
    ]);
    expect(service.body.data.totals).toEqual(daily.body.data.totals);
    expect(service.body.data.unpriced).toEqual({ lines: 1, by_reason: { no_pricing_label: 1 } });
    expect(daily.body.data.unpriced).toEqual(service.body.data.unpriced);
    // The tag filter reads the lines: only the tagged ones count.
    expect(lines.body.data.totals).toEqual([{ currency: "USD", cost: "17.75" }]);
  });

  it("tag queries read spend_tag_daily and answer exactly as the lines do (a second dimension sends the same query to the lines)", async () => {
    const queries = [
      "?start=2026-10-01&end=2026-12-01&granularity=day&group_by=tag:team",
      "?start=2026-10-01&end=2026-12-01&granularity=month&group_by=tenant,tag:team",
      "?start=2026-10-01&end=2026-12-01&granularity=none&tag:team=web",
      "?start=2026-10-01&end=2026-12-01&granularity=none&group_by=tag:team&tag:team=web,data",
      "?start=2026-10-01&end=2026-12-01&granularity=none&group_by=tenant&tag:team=data",
      `?start=2026-10-01&end=2026-12-01&granularity=month&group_by=tag:team&tenant=${org.tenant.id}`,
      "?start=2026-10-01&end=2026-12-01&granularity=none&group_by=tag:nobody",
      "?start=2026-10-01&end=2026-12-01&granularity=none&group_by=tag:team&metric=effective_cost",
    ];
    for (const query of queries) {
      const rollup = await orgSpend(query);
      const lines = await orgSpend(`${query}&provider=AWS`);
      expect(rollup.status).toBe(200);
      expect({ query, data: rollup.body.data }).toEqual({ query, data: lines.body.data });
    }
    const byTeam = await orgSpend("?start=2026-10-01&end=2026-11-01&granularity=none&group_by=tag:team");
    expect(byTeam.body.data.rows.map((row: { group: unknown; currency: string; cost: string }) => [row.group, row.currency, row.cost])).toEqual([
      [{ "tag:team": null }, "USD", "1100"],
      [{ "tag:team": "web" }, "USD", "14.5"],
      [{ "tag:team": "data" }, "USD", "3.25"],
      [{ "tag:team": null }, "EUR", "2"],
    ]);
    expect(byTeam.body.data.unpriced).toEqual({ lines: 1, by_reason: { no_pricing_label: 1 } });
    const member = await tenantSpend("?start=2026-10-01&end=2026-11-01&granularity=none&group_by=tag:team");
    expect(member.body.data.rows.map((row: { group: unknown; cost: string }) => [row.group, row.cost])).toEqual([
      [{ "tag:team": "web" }, "14.5"],
      [{ "tag:team": "data" }, "3.25"],
      [{ "tag:team": null }, "2"],
    ]);
  });

  it("shows members only their tenants (no unallocated lines)", async () => {
    const res = await orgSpend("?start=2026-10-01&end=2026-11-01&granularity=none&group_by=tenant", member);
    expect(res.status).toBe(200);
    expect(res.body.data.rows.map((row: { group: { tenant: string } }) => row.group.tenant)).toEqual([org.tenant.id, org.tenant.id]);
    const other = await orgSpend(`?start=2026-10-01&end=2026-11-01&tenant=${tenant2}`, member);
    expect(other.body.data.totals).toEqual([]);
  });
});

describe("GET /api/v1/tenant/spend/lines", () => {
  it("pages through the tenant's lines in charge period order with their provenance", async () => {
    const seen: { charge_period_start: string; billed_cost: string | null; tenant_id: string }[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const res: request.Response = await request(ctx.app)
        .get(`/api/v1/tenant/spend/lines?start=2026-10-01&end=2026-12-01&limit=2${cursor ? `&cursor=${cursor}` : ""}`)
        .set("Authorization", `Bearer ${org.token}`)
        .set("X-Service-Tenant-ID", org.tenant.id);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items);
      cursor = res.body.data.next_cursor;
    }
    expect(seen.map((item) => [item.charge_period_start, item.billed_cost])).toEqual([
      ["2026-10-01T00:00:00.000Z", "10.5"],
      ["2026-10-01T18:00:00.000Z", "3.25"],
      ["2026-10-02T00:00:00.000Z", "2"],
      ["2026-10-02T06:00:00.000Z", "4"],
      ["2026-10-02T12:00:00.000Z", null],
      ["2026-11-03T00:00:00.000Z", "7"],
    ]);
    expect(new Set(seen.map((item) => item.tenant_id))).toEqual(new Set([org.tenant.id]));
    const bad = await request(ctx.app)
      .get("/api/v1/tenant/spend/lines?cursor=bogus")
      .set("Authorization", `Bearer ${org.token}`)
      .set("X-Service-Tenant-ID", org.tenant.id);
    expectError(bad, 400, /cursor/);
  });
});
