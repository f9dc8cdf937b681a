// Dimensions applied (docs/api.md, "Dimensions"): the roll-up kept with every kind of line write and
// equal to a rebuild from the lines, the background apply (status, dimension.applied), and spend
// queries by dimension: splits with direct/shared columns, the invariant, filters, members' tenants.
import { parse } from "csv-parse/sync";
import request from "supertest";
import { Decimal } from "@cloudcost/decimal";
import { compileAssigner } from "../src/dimensions/rollup";
import { readRollupVersions } from "../src/dimensions/rollup-repository";
import { SERVICE_ROLLUP_DIMENSIONS } from "../src/spend/rollup-columns";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { addUser, expectError, type SignedUp, signUp } from "./helpers/identity";
import { rollupsMatchLines } from "./helpers/rollup";
import { dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let owner: SignedUp;
let org: string;
let tenantA: string;
let tenantB: string;

const bearer = (token = owner.token) => ({ Authorization: `Bearer ${token}` });
const spend = (query: string, token = owner.token) => request(ctx.app).get(`/api/v1/organizations/${org}/spend?${query}`).set(bearer(token));
const RANGE = "start=2026-10-01&end=2026-10-03&granularity=none";

const TEAM = {
  name: "Team",
  rules: [
    { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
    { value: "data", match: { field: "service_name", op: "eq", value: "Athena" } },
  ],
  splits: [
    { source: "platform", targets: "*", method: "proportional" },
    { source: null, targets: ["web", "data"], method: "fixed", percentages: { web: "75", data: "25" } },
  ],
};

const ROLLUP_COLUMNS = SERVICE_ROLLUP_DIMENSIONS;
const COSTS = ["billed_cost", "effective_cost", "list_cost", "contracted_cost"];

/**
 * Both stored dimension roll-ups against ones rebuilt here from every line of the organization,
 * each line assigned on its own (the writers assign per combination and let the database sum):
 * equal, row for row. Answers the rows of spend_dimension_daily.
 */
async function dimensionRollupMatchesLines(): Promise<number> {
  const lines = await ctx.db.sql.query<Record<string, string | null> & { tags: Record<string, string> | null }>(
    `SELECT (charge_period_start AT TIME ZONE 'UTC')::date::text AS day, tenant_id, ${ROLLUP_COLUMNS.map((c) => `coalesce(${c}, '') AS ${c}`).join(", ")},
        region, resource_id, resource_name, sub_account_id, sub_account_name, billing_account_id, sku_id, model, tags,
        ${COSTS.map((c) => `coalesce(${c}, 0)::text AS ${c}`).join(", ")}
       FROM spend_lines WHERE organization_id = $1`,
    [org],
  );
  const assigner = compileAssigner(await readRollupVersions(ctx.prisma, org));
  const rows = new Map<string, Decimal[]>();
  const values = new Map<string, Decimal[]>();
  const add = (map: Map<string, Decimal[]>, id: string, line: Record<string, unknown>) => {
    const sums = map.get(id) ?? [...COSTS, "lines"].map(() => new Decimal(0));
    COSTS.forEach((c, i) => {
      sums[i] = sums[i].plus(line[c] as string);
    });
    sums[COSTS.length] = sums[COSTS.length].plus(1);
    map.set(id, sums);
  };
  for (const line of lines) {
    const read = (field: string) =>
      (field.startsWith("tag:") ? (line.tags?.[field.slice(4)] ?? null) : field === "tenant" ? line.tenant_id : line[field]) ?? null;
    const assigned = assigner.assign(
      (line.day as string).slice(0, 7),
      assigner.fields.map((field) => read(field) as string | null),
    );
    for (const key of assigner.keys) {
      const value = assigned.get(key) ?? "";
      add(rows, JSON.stringify([key, line.day, line.tenant_id ?? "", value, ...ROLLUP_COLUMNS.map((c) => line[c])]), line);
      if (line.unpriced_reason === "") add(values, JSON.stringify([key, line.day, line.currency, value]), line);
    }
  }
  const text = (map: Map<string, Decimal[]>) => [...map].map(([id, sums]) => JSON.stringify([...JSON.parse(id), ...sums.map((sum) => sum.toFixed())])).sort();
  const stored = await ctx.db.sql.query<Record<string, string>>(
    `SELECT dimension_key, day::text AS day, tenant_id, value, ${ROLLUP_COLUMNS.join(", ")}, ${COSTS.map((c) => `${c}::text`).join(", ")}, line_count::text
       FROM spend_dimension_daily WHERE organization_id = $1`,
    [org],
  );
  const storedValues = await ctx.db.sql.query<Record<string, string>>(
    `SELECT dimension_key, day::text AS day, currency, value, ${COSTS.map((c) => `${c}::text`).join(", ")}, line_count::text
       FROM spend_dimension_value_daily WHERE organization_id = $1`,
    [org],
  );
  const normalize = (table: Record<string, string>[], columns: string[]) =>
    table.map((row) => JSON.stringify([...columns.map((c) => row[c]), ...[...COSTS, "line_count"].map((c) => new Decimal(row[c]).toFixed())])).sort();
  expect(normalize(stored, ["dimension_key", "day", "tenant_id", "value", ...ROLLUP_COLUMNS])).toEqual(text(rows));
  expect(normalize(storedValues, ["dimension_key", "day", "currency", "value"])).toEqual(text(values));
  return stored.length;
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Shared Costs Ltd" });
  org = owner.organization.id;
  tenantA = owner.tenant.id;
  tenantB = (await request(ctx.app).post(`/api/v1/organizations/${org}/tenants`).set(bearer()).send({ name: "Team B" }).expect(201)).body.data.id;
  const vm = (tenant: string, day: string, cost: string, team?: string) => dayLine(tenant, day, cost, { serviceName: "VMs", tags: team ? { team } : {} });
  await seedSpend(ctx, org, [
    vm(tenantA, "2026-10-01", "90", "platform"),
    vm(tenantA, "2026-10-01", "300", "web"),
    dayLine(tenantA, "2026-10-01", "100", { serviceName: "Athena" }),
    dayLine(tenantA, "2026-10-01", "30", { serviceName: "Support" }),
    vm(tenantA, "2026-10-02", "10", "platform"),
    vm(tenantB, "2026-10-02", "10", "web"),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

describe("applying a version", () => {
  it("builds the roll-up in the background, marks the version applied and sends dimension.applied", async () => {
    const put = await request(ctx.app).put(`/api/v1/organizations/${org}/dimensions/team`).set(bearer()).send(TEAM);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ status: "processing", applied_at: null });
    await ctx.deps.dimensionApply.runNow();
    const got = await request(ctx.app).get(`/api/v1/organizations/${org}/dimensions/team`).set(bearer()).expect(200);
    expect(got.body.data).toMatchObject({ version: 1, status: "applied", applied_at: expect.any(String) });
    const events = await ctx.db.sql.query<{ type: string; data: { dimension_key: string; version: number } }>(
      "SELECT type, data FROM webhook_events WHERE organization_id = $1 AND type = 'dimension.applied'",
      [org],
    );
    expect(events.map((event) => event.data)).toEqual([expect.objectContaining({ dimension_key: "team", version: 1 })]);
    // One row per (day, tenant, service, value): each of the 6 lines differs in one of them.
    expect(await dimensionRollupMatchesLines()).toBe(6);
  });
});

describe("spend by dimension", () => {
  it("splits shared costs, adding direct_cost, shared_in and shared_out, with the same total as without the dimension", async () => {
    const res = await spend(`${RANGE}&group_by=dimension:team`);
    expect(res.status).toBe(200);
    // Oct 1: platform 90 to '*' in proportion to direct cost (web 300, data 100): web 67.5, data 22.5;
    // the unallocated 30 by 75/25: web 22.5, data 7.5. Oct 2: platform 10 to the only value with cost, web.
    // web 310 + 67.5 + 22.5 + 10 = 410; data 100 + 22.5 + 7.5 = 130; 410 + 130 = 540, the bill.
    const row = (team: string | null, cost: string, direct: string, sharedIn: string, sharedOut: string) => ({
      period_start: "2026-10-01T00:00:00.000Z",
      period_end: "2026-10-03T00:00:00.000Z",
      group: { "dimension:team": team },
      currency: "USD",
      cost,
      direct_cost: direct,
      shared_in: sharedIn,
      shared_out: sharedOut,
    });
    expect(res.body.data.rows).toEqual([
      row("web", "410", "310", "100", "0"),
      row("data", "130", "100", "30", "0"),
      row("platform", "0", "100", "0", "100"),
      row(null, "0", "30", "0", "30"),
    ]);
    expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "540" }]);
    const plain = await spend(RANGE).expect(200);
    expect(plain.body.data.totals).toEqual(res.body.data.totals);
  });

  it("shows each value's own lines with allocation=direct", async () => {
    const res = await spend(`${RANGE}&group_by=dimension:team&allocation=direct`).expect(200);
    expect(res.body.data.rows.map((r: { group: Record<string, string | null>; cost: string }) => [r.group["dimension:team"], r.cost])).toEqual([
      ["web", "310"],
      ["data", "100"],
      ["platform", "100"],
      [null, "30"],
    ]);
    expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "540" }]);
  });

  it("filters on the dimension after the splits, each piece keeping its line's service", async () => {
    const res = await spend(`${RANGE}&group_by=service_name&dimension:team=web`).expect(200);
    // web's own VMs 310, platform's VMs pieces 67.5 + 10; the support plan's piece 22.5.
    expect(res.body.data.rows.map((r: { group: Record<string, string | null>; cost: string }) => [r.group.service_name, r.cost])).toEqual([
      ["VMs", "387.5"],
      ["Support", "22.5"],
    ]);
    expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "410" }]);
    const unallocated = await spend(`${RANGE}&dimension:team=__unallocated__&allocation=direct`).expect(200);
    expect(unallocated.body.data.totals).toEqual([{ currency: "USD", cost: "30" }]);
  });

  it("keeps the invariant on every query shape: by day and month, beside a tag or a resource (from the lines), beside or filtered to a tenant, within a day, in another metric", async () => {
    for (const query of [
      "start=2026-10-01&end=2026-10-03&granularity=day&group_by=dimension:team",
      `${RANGE}&group_by=dimension:team,tag:team`,
      `${RANGE}&group_by=tenant,dimension:team`,
      `${RANGE}&group_by=dimension:team&provider=aws`,
      "start=2026-10-01T00:00:00Z&end=2026-10-02T12:00:00Z&granularity=none&group_by=dimension:team",
      "start=2026-09-15&end=2026-11-01&granularity=month&group_by=dimension:team,service_name&metric=effective_cost",
      `${RANGE}&group_by=dimension:team,resource_id`,
      `${RANGE}&group_by=dimension:team&tenant=${tenantA}`,
    ]) {
      const [byDimension, direct, plain] = await Promise.all([
        spend(query).expect(200),
        spend(`${query}&allocation=direct`).expect(200),
        spend(query.replace(/group_by=[^&]*/, "")).expect(200),
      ]);
      expect({ query, totals: byDimension.body.data.totals }).toEqual({ query, totals: plain.body.data.totals });
      expect({ query, totals: direct.body.data.totals }).toEqual({ query, totals: plain.body.data.totals });
      const sum = byDimension.body.data.rows.reduce((total: Decimal, r: { cost: string }) => total.plus(r.cost), new Decimal(0));
      expect({ query, sum: sum.toFixed() }).toEqual({ query, sum: plain.body.data.totals[0].cost });
    }
  });

  it("shows a member only their tenants' pieces", async () => {
    const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member", tenantIds: [tenantB] });
    const res = await spend(`${RANGE}&group_by=dimension:team`, member.token).expect(200);
    // Team B's only line: web's 10 on Oct 2.
    expect(res.body.data.rows.map((r: { group: Record<string, string | null>; cost: string }) => [r.group["dimension:team"], r.cost])).toEqual([["web", "10"]]);
  });

  it("exports x_Dimension_<key> columns, and with allocation=split each split source's line once per piece with its ratio", async () => {
    const exported = async (query: string) => {
      const res = await request(ctx.app).get(`/api/v1/organizations/${org}/spend/export?start=2026-10-01&end=2026-10-03&${query}`).set(bearer()).expect(200);
      return parse(res.text, { columns: true }) as Record<string, string>[];
    };
    const direct = await exported("dimensions=team");
    expect(direct.map((row) => [row.ServiceName, row.BilledCost, row.x_Dimension_team]).sort()).toEqual(
      [
        ["VMs", "90", "platform"],
        ["VMs", "300", "web"],
        ["Athena", "100", "data"],
        ["Support", "30", ""],
        ["VMs", "10", "platform"],
        ["VMs", "10", "web"],
      ].sort(),
    );
    const split = await exported("dimensions=team&allocation=split");
    // Oct 1: platform's VMs line 90 as web 67.5 (ratio 0.75) and data 22.5 (0.25); the support line 30
    // as web 22.5 (0.75) and data 7.5 (0.25). Oct 2: platform's 10 to web alone (ratio 1).
    const pieces = split.filter((row) => row.AllocatedMethodId !== "");
    expect(
      pieces.map((row) => [row.ChargePeriodStart.slice(0, 10), row.ServiceName, row.x_Dimension_team, row.BilledCost, row.AllocatedMethodDetails]).sort(),
    ).toEqual(
      [
        ["2026-10-01", "VMs", "web", "67.5", '{"Elements":[{"AllocatedRatio":0.75}]}'],
        ["2026-10-01", "VMs", "data", "22.5", '{"Elements":[{"AllocatedRatio":0.25}]}'],
        ["2026-10-01", "Support", "web", "22.5", '{"Elements":[{"AllocatedRatio":0.75}]}'],
        ["2026-10-01", "Support", "data", "7.5", '{"Elements":[{"AllocatedRatio":0.25}]}'],
        ["2026-10-02", "VMs", "web", "10", '{"Elements":[{"AllocatedRatio":1}]}'],
      ].sort(),
    );
    const byTeam = new Map<string, Decimal>();
    for (const row of split) byTeam.set(row.x_Dimension_team, (byTeam.get(row.x_Dimension_team) ?? new Decimal(0)).plus(row.BilledCost));
    expect(Object.fromEntries([...byTeam].map(([team, cost]) => [team, cost.toFixed()]))).toEqual({ web: "410", data: "130" });
    expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/spend/export?allocation=split`).set(bearer()), 400, /allocation/);
    expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/spend/export?dimensions=nope`).set(bearer()), 400, /dimensions: no dimension nope/);
    // Dimension filters belong to the spend queries: the lines and the export refuse them rather than ignore them.
    expectError(await request(ctx.app).get(`/api/v1/organizations/${org}/spend/export?dimension:team=web`).set(bearer()), 400, /dimension:team/);
    expectError(
      await request(ctx.app).get("/api/v1/tenant/spend/lines?dimension:team=web").set(bearer()).set("X-Service-Tenant-ID", tenantA),
      400,
      /dimension:team/,
    );
  });

  it("narrows a budget and the forecast to a dimension's values after the splits", async () => {
    const realClock = ctx.deps.clock;
    ctx.deps.clock = () => new Date("2026-10-02T12:00:00.000Z");
    try {
      const tenantCall = (method: "get" | "post", path: string) =>
        request(ctx.app)[method](`/api/v1/tenant${path}`).set(bearer()).set("X-Service-Tenant-ID", tenantA);
      const budget = await tenantCall("post", "/budgets").send({
        name: "Web team",
        period: "monthly",
        amount: "1000",
        currency: "USD",
        filters: { "dimension:team": ["web"] },
        thresholds: [{ percent: 50, kind: "actual" }],
      });
      expect(budget.status).toBe(201);
      // Tenant A's web cost after the splits: 300 + 67.5 (platform's VMs) + 22.5 (support) on Oct 1, 10 (platform) on Oct 2
      // = 400; tenant B's own 10 is another tenant's.
      expect(budget.body.data.status).toMatchObject({ spent: "400.00", percent_used: "40.00" });
      const forecast = await tenantCall("get", "/spend/forecast?dimension:team=web").expect(200);
      const actual = Object.fromEntries(
        (forecast.body.data.rows as { day: string; actual: string | null }[]).filter((row) => row.actual !== null).map((row) => [row.day, row.actual]),
      );
      expect(actual).toMatchObject({ "2026-10-01": "390.00", "2026-10-02": "10.00" });
      expectError(
        await tenantCall("post", "/budgets").send({
          name: "x",
          period: "monthly",
          amount: "1",
          currency: "USD",
          filters: { "dimension:nope": ["a"] },
          thresholds: [],
        }),
        400,
        /filters.dimension:nope: no dimension nope/,
      );
      expectError(
        await tenantCall("post", "/budgets").send({ name: "x", period: "monthly", amount: "1", currency: "USD", filters: { "team:x": ["a"] }, thresholds: [] }),
        400,
        /team:x/,
      );
      expectError(await tenantCall("get", "/spend/forecast?dimension:nope=a"), 400, /dimension:nope: no dimension nope/);
      await tenantCall("get", `/budgets/${budget.body.data.id}`).expect(200);
      await request(ctx.app).delete(`/api/v1/tenant/budgets/${budget.body.data.id}`).set(bearer()).set("X-Service-Tenant-ID", tenantA).expect(204);
    } finally {
      ctx.deps.clock = realClock;
    }
  });

  it("refuses an unknown dimension and two dimensions in one query, naming the parameter", async () => {
    expectError(await spend(`${RANGE}&group_by=dimension:nope`), 400, /group_by: no dimension nope/);
    expectError(await spend(`${RANGE}&dimension:nope=a`), 400, /dimension:nope: no dimension nope/);
    expectError(await spend(`${RANGE}&group_by=dimension:team&dimension:other=a`), 400, /one dimension per query/);
    expectError(await spend(`${RANGE}&group_by=dimension:Team`), 400, /group_by/);
  });
});

describe("the roll-up after every kind of write", () => {
  it("stays equal to a rebuild after a usage batch, an import, a re-allocation, a supersede and a deletion", async () => {
    await seedSpend(ctx, org, [dayLine(tenantB, "2026-10-02", "5", { serviceName: "VMs", tags: { team: "data" } })]);
    await dimensionRollupMatchesLines();
    const csv = (cost: string) =>
      focusCsvText(
        [
          {
            ChargePeriodStart: "2026-10-02T00:00:00Z",
            ChargePeriodEnd: "2026-10-02T01:00:00Z",
            BilledCost: cost,
            EffectiveCost: cost,
            ListCost: cost,
            ContractedCost: cost,
            ServiceName: "Athena",
            Tags: "",
          },
          {
            ChargePeriodStart: "2026-10-02T00:00:00Z",
            ChargePeriodEnd: "2026-10-02T01:00:00Z",
            BilledCost: "7",
            EffectiveCost: "7",
            ListCost: "7",
            ContractedCost: "7",
            ServiceName: "VMs",
            Tags: '{"team":"web"}',
          },
        ],
        ["Tags"],
      );
    const imported = await request(ctx.app).post(`/api/v1/organizations/${org}/spend/imports`).set(bearer()).set("Content-Type", "text/csv").send(csv("20"));
    expect(imported.status).toBe(201);
    await dimensionRollupMatchesLines();
    await request(ctx.app)
      .put(`/api/v1/organizations/${org}/spend/allocation-rules`)
      .set(bearer())
      .send({ rules: [{ tenant_id: tenantB }] })
      .expect(200);
    await dimensionRollupMatchesLines();
    // The same billing account and period again: the first import's lines are superseded.
    const again = await request(ctx.app).post(`/api/v1/organizations/${org}/spend/imports`).set(bearer()).set("Content-Type", "text/csv").send(csv("25"));
    expect(again.status).toBe(201);
    await dimensionRollupMatchesLines();
    await request(ctx.app).delete(`/api/v1/organizations/${org}/spend/imports/${again.body.data.import.id}`).set(bearer()).expect(204);
    await dimensionRollupMatchesLines();
    await rollupsMatchLines(ctx, org);
  });

  it("rebuilds after a new version, and drops a deleted dimension's rows", async () => {
    // An unallocated line too: the rebuild reads it as a chunk of its own (no tenant).
    await seedSpend(ctx, org, [{ ...dayLine(tenantA, "2026-10-02", "3", { serviceName: "VMs" }), tenantId: null }]);
    const put = await request(ctx.app)
      .put(`/api/v1/organizations/${org}/dimensions/team`)
      .set(bearer())
      .send({ ...TEAM, rules: [{ value: "everyone", match: { field: "provider", op: "present" } }], splits: [] });
    expect(put.body.data.version).toBe(2);
    await ctx.deps.dimensionApply.runNow();
    await dimensionRollupMatchesLines();
    const res = await spend(`${RANGE}&group_by=dimension:team`).expect(200);
    expect(res.body.data.rows.map((r: { group: Record<string, string | null> }) => r.group["dimension:team"])).toEqual(["everyone"]);
    await request(ctx.app).delete(`/api/v1/organizations/${org}/dimensions/team`).set(bearer()).expect(204);
    expect(await dimensionRollupMatchesLines()).toBe(0);
  });
});
