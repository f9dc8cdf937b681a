// Dimensions (docs/api.md, "Dimensions"): versions by month, the condition grammar with 400s naming
// the JSON path, RE2 patterns, references between dimensions and their cycles, split rules' checks,
// the organization's limit, roles.
import request from "supertest";
import { Dimension } from "@cloudcost/contracts";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let owner: SignedUp;
let org: string;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Allocations Inc" });
  org = owner.organization.id;
});
afterAll(async () => {
  await ctx?.close();
});

const path = (suffix = "") => `/api/v1/organizations/${org}/dimensions${suffix}`;
const put = (key: string, body: unknown, token = owner.token) =>
  request(ctx.app)
    .put(path(`/${key}`))
    .set("Authorization", `Bearer ${token}`)
    .send(body);
const get = (suffix: string, token = owner.token) => request(ctx.app).get(path(suffix)).set("Authorization", `Bearer ${token}`);
const del = (key: string, token = owner.token) =>
  request(ctx.app)
    .delete(path(`/${key}`))
    .set("Authorization", `Bearer ${token}`);

const month = (monthsFromNow: number) => {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsFromNow, 1));
  return d.toISOString().slice(0, 7);
};

const TEAM = {
  name: "Team",
  description: "Who owns the cost",
  rules: [
    { value: "platform", match: { field: "tag:team", op: "eq", value: "platform" } },
    { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
    {
      value: "data",
      match: {
        any: [
          { field: "service_name", op: "in", values: ["Amazon Redshift", "Amazon Athena"] },
          { all: [{ field: "sub_account_id", op: "prefix", value: "2109" }, { not: { field: "region", op: "eq", value: "us-east-1" } }] },
          { field: "resource_name", op: "regex", value: "^etl-[a-z]+-\\d+$", case: "insensitive" },
        ],
      },
    },
  ],
  default_value: null,
  splits: [
    { source: "platform", targets: "*", method: "proportional" },
    { source: null, targets: ["data", "web"], method: "fixed", percentages: { data: "33.3333333333", web: "66.6666666667" } },
  ],
};

describe("versions", () => {
  it("creates version 1 effective 12 months back by default, then each PUT adds the next version from its month", async () => {
    const first = await put("team", TEAM);
    expect(first.status).toBe(200);
    const v1 = Dimension.parse(first.body.data);
    expect(v1).toMatchObject({
      key: "team",
      name: "Team",
      version: 1,
      effective_from: month(-12),
      default_value: null,
      status: "processing",
      applied_at: null,
    });
    expect(v1.rules).toEqual(TEAM.rules);
    expect(v1.splits.map((s) => s.id)).toEqual([expect.stringMatching(/^spl_/), expect.stringMatching(/^spl_/)]);
    expect(v1.splits[1]).toMatchObject({ source: null, method: "fixed", percentages: { data: "33.3333333333", web: "66.6666666667" } });

    const second = await put("team", { ...TEAM, default_value: "shared", effective_from: month(-2) });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ version: 2, effective_from: month(-2), default_value: "shared" });

    expect((await get("/team")).body.data).toMatchObject({ version: 2 });
    expect((await get("/team?version=1")).body.data).toMatchObject({ version: 1, default_value: null });
    expectError(await get("/team?version=3"), 404, /no version 3/);
    expect((await get("/team/versions")).body.data.items.map((d: Dimension) => d.version)).toEqual([2, 1]);
    expect((await get("")).body.data.items.map((d: Dimension) => [d.key, d.version])).toEqual([["team", 2]]);
    expectError(await get("/nothing"), 404, /nothing is not in this organization/);
    expectError(await get("/nothing/versions"), 404);
  });

  it("takes effective_from from 36 months back to 12 ahead, naming it otherwise", async () => {
    expect((await put("window", { ...TEAM, splits: [], effective_from: month(-36) })).status).toBe(200);
    expectError(await put("window", { ...TEAM, splits: [], effective_from: month(-37) }), 400, /effective_from: must be from/);
    expectError(await put("window", { ...TEAM, splits: [], effective_from: month(13) }), 400, /effective_from/);
    expectError(await put("window", { ...TEAM, splits: [], effective_from: "2026-13" }), 400, /effective_from: must be a month/);
    expect((await del("window")).status).toBe(204);
  });
});

describe("the condition grammar", () => {
  const rule = (match: unknown) => ({ name: "X", rules: [{ value: "v", match }] });

  it.each([
    ["an unknown op", { field: "region", op: "like", value: "x" }, /rules\.0\.match\.op/],
    ["an unknown field", { field: "colour", op: "eq", value: "x" }, /rules\.0\.match\.field/],
    ["eq without value", { field: "region", op: "eq" }, /rules\.0\.match\.value: op eq needs value/],
    ["in without values", { field: "region", op: "in", value: "x" }, /rules\.0\.match\.values: op in needs values/],
    ["present with a value", { field: "tag:team", op: "present", value: "x" }, /rules\.0\.match\.value: op present takes no value/],
    ["two forms at once", { all: [{ field: "region", op: "present" }], field: "region", op: "present" }, /rules\.0\.match: a condition has exactly one/],
    ["none", {}, /rules\.0\.match: a condition has exactly one of all, any, not or field/],
    ["an unknown key", { field: "region", op: "present", colour: 1 }, /rules\.0\.match/],
    [
      "a deep bad leaf",
      { all: [{ field: "region", op: "present" }, { any: [{ not: { field: "region", op: "eq" } }] }] },
      /rules\.0\.match\.all\.1\.any\.0\.not\.value/,
    ],
    ["an empty all", { all: [] }, /rules\.0\.match\.all/],
    ["a regex over 256 characters", { field: "region", op: "regex", value: "a".repeat(257) }, /rules\.0\.match\.value: a regex has at most 256/],
    ["a pattern RE2 refuses", { field: "region", op: "regex", value: "(a" }, /rules\.0\.match\.value: not an RE2 pattern/],
    ["a backreference (no linear-time engine runs it)", { field: "region", op: "regex", value: "(a)\\1" }, /rules\.0\.match\.value: not an RE2 pattern/],
    ["1001 values of in", { field: "region", op: "in", values: Array.from({ length: 1001 }, (_, i) => `r${i}`) }, /rules\.0\.match\.values/],
  ])("refuses %s with a 400 naming its path", async (_name, match, message) => {
    expectError(await put("grammar", rule(match)), 400, message);
  });

  it("nests at most 5 deep and counts at most 2000 leaves per dimension", async () => {
    const nest = (depth: number): unknown => (depth === 1 ? { field: "region", op: "present" } : { not: nest(depth - 1) });
    expect((await put("grammar", rule(nest(5)))).status).toBe(200);
    expectError(await put("grammar", rule(nest(6))), 400, /rules\.0\.match\.not\.not\.not\.not\.not: conditions nest at most 5 deep/);
    const wide = { any: Array.from({ length: 1000 }, () => ({ field: "region", op: "present" })) };
    expect(
      (
        await put("grammar", {
          name: "X",
          rules: [
            { value: "a", match: wide },
            { value: "b", match: wide },
          ],
        })
      ).status,
    ).toBe(200);
    const tooWide = {
      name: "X",
      rules: [
        { value: "a", match: wide },
        { value: "b", match: wide },
        { value: "c", match: { field: "region", op: "present" } },
      ],
    };
    expectError(await put("grammar", tooWide), 400, /rules: a dimension has at most 2000 condition leaves; these rules have 2001/);
    expect((await del("grammar")).status).toBe(204);
  });

  it("needs exactly one of value and value_from, a value of 1-128 characters, and value_from a field or tag", async () => {
    const match = { field: "region", op: "present" };
    expectError(await put("g2", { name: "X", rules: [{ match }] }), 400, /rules\.0: a rule has exactly one of value/);
    expectError(await put("g2", { name: "X", rules: [{ value: "a", value_from: "region", match }] }), 400, /rules\.0: a rule has exactly one/);
    expectError(await put("g2", { name: "X", rules: [{ value: "x".repeat(129), match }] }), 400, /rules\.0\.value/);
    expectError(await put("g2", { name: "X", rules: [{ value: "__unallocated__", match }] }), 400, /rules\.0\.value: __unallocated__/);
    expectError(await put("g2", { name: "X", rules: [{ value_from: "dimension:team", match }] }), 400, /rules\.0\.value_from/);
    expectError(await put("g2", { name: "X", rules: [] }), 400, /rules/);
    expectError(await put("Bad-Key", { name: "X", rules: [{ value: "a", match }] }), 400, /key/);
    expectError(await put("g2", { name: "X", rules: Array.from({ length: 501 }, () => ({ value: "a", match })) }), 400, /rules: Too big/);
  });
});

describe("references between dimensions", () => {
  const reading = (key: string) => ({ name: key, rules: [{ value: "yes", match: { field: `dimension:${key}`, op: "eq", value: "platform" } }] });

  it("reads another dimension, refuses an unknown one and any cycle (naming it), and keeps a read dimension from deletion", async () => {
    expectError(await put("owner_team", reading("nowhere")), 400, /rules\.0\.match\.field: no dimension nowhere in this organization/);
    expect((await put("owner_team", reading("team"))).status).toBe(200);
    expect((await put("cost_center", reading("owner_team"))).status).toBe(200);
    expectError(
      await put("team", { ...TEAM, rules: [...TEAM.rules, reading("cost_center").rules[0]] }),
      400,
      /dimension:cost_center closes a cycle: team -> cost_center -> owner_team -> team/,
    );
    expectError(await put("selfish", reading("selfish")), 400, /closes a cycle: selfish -> selfish/);
    expectError(await del("team"), 409, /read by the rules of owner_team/);
    expect((await del("cost_center")).status).toBe(204);
    expect((await del("owner_team")).status).toBe(204);
    expect((await get("/team")).status).toBe(200);
  });
});

describe("split rules", () => {
  const withSplits = (splits: unknown[]) => ({ ...TEAM, splits });

  it.each([
    [
      "a source twice",
      [
        { source: "a", targets: ["b"], method: "even" },
        { source: "a", targets: ["c"], method: "even" },
      ],
      /splits\.1\.source: splits\.0 already shares/,
    ],
    [
      "a source as a target",
      [
        { source: "a", targets: ["b"], method: "even" },
        { source: "c", targets: ["a"], method: "even" },
      ],
      /splits\.1\.targets\.0: a is a split source/,
    ],
    [
      "fixed percentages summing to 99.9999999999",
      [{ source: "a", targets: ["b", "c"], method: "fixed", percentages: { b: "50", c: "49.9999999999" } }],
      /splits\.0\.percentages: percentages sum to exactly 100/,
    ],
    [
      "a percentage for no target",
      [{ source: "a", targets: ["b"], method: "fixed", percentages: { b: "50", z: "50" } }],
      /splits\.0\.percentages\.z: not one of the targets/,
    ],
    ["fixed without percentages", [{ source: "a", targets: ["b"], method: "fixed" }], /splits\.0\.percentages: method fixed needs percentages/],
    ["fixed over *", [{ source: "a", targets: "*", method: "fixed", percentages: {} }], /splits\.0\.targets: method fixed names its targets/],
    ["metric without a metric", [{ source: "a", targets: ["b"], method: "metric" }], /splits\.0\.metric: method metric needs metric/],
    ["an unknown method", [{ source: "a", targets: ["b"], method: "random" }], /splits\.0\.method/],
    ["21 splits", Array.from({ length: 21 }, (_, i) => ({ source: `s${i}`, targets: ["t"], method: "even" })), /splits: Too big/],
  ])("refuses %s", async (_name, splits, message) => {
    expectError(await put("team", withSplits(splits)), 400, message);
  });
});

describe("limits and roles", () => {
  it("holds at most 50 dimensions: the 51st is a 409 limit_reached, a new version of one still works", async () => {
    const before = (await get("")).body.data.items.length;
    const simple = { name: "n", rules: [{ value: "v", match: { field: "region", op: "present" } }] };
    for (let i = before; i < 50; i++) expect((await put(`d${i}`, simple)).status).toBe(200);
    expectError(await put("one_more", simple), 409, /at most 50/);
    expect((await put("d49", simple)).body.data.version).toBe(2);
    for (let i = before; i < 50; i++) expect((await del(`d${i}`)).status).toBe(204);
  });

  it("holds at most 100 versions of a dimension: the 101st is a 409 limit_reached that stores nothing", async () => {
    const simple = { name: "n", rules: [{ value: "v", match: { field: "region", op: "present" } }] };
    expect((await put("many_versions", simple)).status).toBe(200);
    // Versions 2-100 written as the PUT stores them (99 requests would only slow the test).
    await ctx.db.sql.query(
      `INSERT INTO dimension_versions (organization_id, key, version, name, effective_from, rules, splits)
       SELECT organization_id, key, v, name, effective_from, rules, splits FROM dimension_versions, generate_series(2, 100) AS v
       WHERE organization_id = $1 AND key = 'many_versions' AND version = 1`,
      [org],
    );
    expectError(await put("many_versions", simple), 409, /has 100 versions, at most 100/);
    expect((await get("/many_versions")).body.data.version).toBe(100);
    expect((await del("many_versions")).status).toBe(204);
  });

  it("lets every role read and only owners and admins write; another organization sees nothing", async () => {
    const viewer = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "viewer" });
    const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member" });
    const admin = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "admin" });
    expect((await get("/team", viewer.token)).status).toBe(200);
    expect((await get("", member.token)).status).toBe(200);
    expectError(await put("team", TEAM, member.token), 403);
    expectError(await put("team", TEAM, viewer.token), 403);
    expectError(await del("team", member.token), 403);
    expect((await put("team", TEAM, admin.token)).status).toBe(200);
    const other = await signUp(ctx, { company: "Elsewhere" });
    expectError(await get("/team", other.token), 403);
    expectError(await put("team", TEAM, other.token), 403);
  });
});

describe("preview", () => {
  const preview = (key: string, body: unknown, query = "start=2026-10-01&end=2026-10-03", token = owner.token) =>
    request(ctx.app)
      .post(path(`/${key}/preview?${query}`))
      .set("Authorization", `Bearer ${token}`)
      .send(body);

  beforeAll(async () => {
    const line = (day: string, cost: string, service: string, tags?: Record<string, string>) => ({
      ChargePeriodStart: `${day}T00:00:00Z`,
      ChargePeriodEnd: `${day}T01:00:00Z`,
      BilledCost: cost,
      EffectiveCost: cost,
      ListCost: cost,
      ContractedCost: cost,
      ServiceName: service,
      Tags: tags ? JSON.stringify(tags) : "",
    });
    const csv = focusCsvText(
      [
        line("2026-10-01", "90", "VMs", { team: "platform" }),
        line("2026-10-01", "300", "VMs", { team: "web" }),
        line("2026-10-01", "100", "Athena", { team: "data" }),
        line("2026-10-01", "30", "Support"),
        line("2026-10-02", "10", "VMs", { team: "platform" }),
        line("2026-10-02", "10", "VMs", { team: "web" }),
      ],
      ["Tags"],
    );
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${org}/spend/imports`)
      .set("Authorization", `Bearer ${owner.token}`)
      .set("Content-Type", "text/csv")
      .send(csv);
    expect(res.status).toBe(201);
  });

  it("assigns the range's lines, splits each day and sums to the same total, saving nothing", async () => {
    const draft = {
      name: "Team",
      rules: [
        { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
        { value: "never", match: { field: "region", op: "eq", value: "mars" } },
      ],
      splits: [
        { source: "platform", targets: "*", method: "proportional" },
        { source: null, targets: ["web", "data"], method: "fixed", percentages: { web: "75", data: "25" } },
      ],
    };
    const versionsBefore = (await get("/team/versions")).body.data.items.length;
    const res = await preview("team", draft);
    expect(res.status).toBe(200);
    // Oct 1: platform 90 to '*' (web 300, data 100): web 90 x 300/400 = 67.5, data 22.5; the unallocated 30: web 75 % = 22.5, data 7.5.
    // Oct 2: platform 10 to '*' (web alone has cost): web 10.
    // Direct 540 = platform 100 + web 310 + data 100 + unallocated 30; after: 0 + (310 + 67.5 + 22.5 + 10 = 410) + (100 + 30 = 130) + 0 = 540.
    expect(res.body.data).toEqual({
      start: "2026-10-01T00:00:00.000Z",
      end: "2026-10-03T00:00:00.000Z",
      currency: "USD",
      metric: "billed_cost",
      // 510 of 540 allocated: 94.444... -> 94.44.
      coverage: { allocated: "510", unallocated: "30", percent: "94.44" },
      values: [
        { value: "__unallocated__", direct_cost: "30", shared_in: "0", shared_out: "30", cost: "0" },
        { value: "data", direct_cost: "100", shared_in: "30", shared_out: "0", cost: "130" },
        { value: "platform", direct_cost: "100", shared_in: "0", shared_out: "100", cost: "0" },
        { value: "web", direct_cost: "310", shared_in: "100", shared_out: "0", cost: "410" },
      ],
      rules: [
        { index: 0, lines: 5, cost: "510" },
        { index: 1, lines: 0, cost: "0" },
      ],
      unused_rules: [1],
    });
    expect((await get("/team/versions")).body.data.items.length).toBe(versionsBefore);
  });

  it("reads another dimension's value under its version for the line's month", async () => {
    const owner_rules = { rules: [{ value: "core", match: { field: "tag:team", op: "in", values: ["platform", "web"] } }], default_value: "other" };
    expect((await put("env_owner", { name: "Owner", ...owner_rules, effective_from: "2026-10" })).status).toBe(200);
    expect((await put("late_owner", { name: "Owner later", ...owner_rules, effective_from: "2026-11" })).status).toBe(200);
    const reading = (key: string) => ({ name: "By owner", rules: [{ value: "core-team", match: { field: `dimension:${key}`, op: "eq", value: "core" } }] });
    // platform 90 + 10, web 300 + 10 are core: 410 over 4 lines; data and the untagged support line are "other".
    const now = (await preview("by_owner", reading("env_owner"))).body.data;
    expect(now.coverage).toEqual({ allocated: "410", unallocated: "130", percent: "75.93" });
    expect(now.rules).toEqual([{ index: 0, lines: 4, cost: "410" }]);
    // late_owner takes effect in November: October's lines have no value of it, so nothing matches.
    expect((await preview("by_owner", reading("late_owner"))).body.data.coverage).toEqual({ allocated: "0", unallocated: "540", percent: "0.00" });
    await del("env_owner");
    await del("late_owner");
  });

  it("reads more than 100 distinct fields at once (a rule per tag key)", async () => {
    const rules = Array.from({ length: 120 }, (_, i) => ({ value: `k${i}`, match: { field: `tag:k${i}`, op: "present" } }));
    const res = await preview("wide", { name: "Wide", rules: [...rules, { value_from: "tag:team", match: { field: "tag:team", op: "present" } }] });
    expect(res.status).toBe(200);
    // No line has a k<i> tag: the last rule gives every tagged line its team, 510 of 540.
    expect(res.body.data.coverage).toEqual({ allocated: "510", unallocated: "30", percent: "94.44" });
    expect(res.body.data.unused_rules).toHaveLength(120);
  });

  it("refuses more than 93 days, a draft the PUT would refuse, and callers below admin", async () => {
    const draft = { name: "X", rules: [{ value: "a", match: { field: "region", op: "present" } }] };
    expectError(await preview("team", draft, "start=2026-01-01&end=2026-04-05"), 400, /end: a preview spans at most 93 days/);
    expectError(await preview("team", draft, "start=2026-10-03&end=2026-10-01"), 400, /end: must be after start/);
    expectError(
      await preview("team", { ...draft, rules: [{ value: "a", match: { field: "region", op: "regex", value: "a(?=b)" } }] }),
      400,
      /rules\.0\.match\.value: not an RE2 pattern/,
    );
    expectError(
      await preview("team", { ...draft, rules: [{ value: "a", match: { field: "dimension:team", op: "present" } }] }),
      400,
      /closes a cycle: team -> team/,
    );
    const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member" });
    expectError(await preview("team", draft, undefined, member.token), 403);
  });
});
