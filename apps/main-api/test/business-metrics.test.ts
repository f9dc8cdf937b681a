// Business metrics and unit cost (docs/api.md, "Business metrics and unit cost"): the metric
// operations (sum and replace, JSON and CSV, the 400s naming their path, roles, another
// organization), unit costs on the spend queries (exact, null on 0 and on no amount, by the
// labelling dimension), and the split method `metric` sharing a source by the labelled amounts in
// the queries, the export and the preview.
import { parse } from "csv-parse/sync";
import request from "supertest";
import { Decimal } from "@cloudcost/decimal";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, type SignedUp, signUp } from "./helpers/identity";
import { dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let owner: SignedUp;
let org: string;
let tenantA: string;
let tenantB: string;

const bearer = (token = owner.token) => ({ Authorization: `Bearer ${token}` });
const metricsPath = (rest = "", organization = org) => `/api/v1/organizations/${organization}/business-metrics${rest}`;
const putMetric = (name: string, body: unknown, token = owner.token) =>
  request(ctx.app)
    .put(metricsPath(`/${name}`))
    .set(bearer(token))
    .send(body as object);
const postValues = (name: string, body: unknown, token = owner.token) =>
  request(ctx.app)
    .post(metricsPath(`/${name}/values`))
    .set(bearer(token))
    .send(body as object);
const postCsv = (name: string, csv: string, query = "", token = owner.token) =>
  request(ctx.app)
    .post(metricsPath(`/${name}/values${query}`))
    .set(bearer(token))
    .set("Content-Type", "text/csv")
    .send(csv);
const values = async (name: string, start: string, end: string, token = owner.token) =>
  (
    await request(ctx.app)
      .get(metricsPath(`/${name}/values?start=${start}&end=${end}`))
      .set(bearer(token))
      .expect(200)
  ).body.data.rows as {
    date: string;
    label: string | null;
    amount: string;
  }[];
const spend = (query: string, token = owner.token) => request(ctx.app).get(`/api/v1/organizations/${org}/spend?${query}`).set(bearer(token));

type Row = { group: Record<string, string | null>; cost: string; metric_amount?: string | null; unit_cost?: string | null; period_start: string };

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Unit Economics Ltd" });
  org = owner.organization.id;
  tenantA = owner.tenant.id;
  tenantB = (await request(ctx.app).post(`/api/v1/organizations/${org}/tenants`).set(bearer()).send({ name: "Team B" }).expect(201)).body.data.id;
});
afterAll(async () => {
  await ctx?.close();
});

describe("business metrics", () => {
  it("creates, changes, lists, reads and deletes a metric (its values with it)", async () => {
    const created = await putMetric("signups", { unit: "signup", description: "New accounts" });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      name: "signups",
      unit: "signup",
      description: "New accounts",
      dimension: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const changed = await putMetric("signups", { unit: "account", dimension: "team" }).expect(200);
    expect(changed.body.data).toMatchObject({ unit: "account", description: null, dimension: "team", created_at: created.body.data.created_at });
    await postValues("signups", { values: [{ date: "2026-10-01", amount: "3" }] }).expect(200);
    const list = await request(ctx.app).get(metricsPath()).set(bearer()).expect(200);
    expect(list.body.data.items.map((m: { name: string }) => m.name)).toContain("signups");
    await request(ctx.app).delete(metricsPath("/signups")).set(bearer()).expect(204);
    expectError(await request(ctx.app).get(metricsPath("/signups")).set(bearer()), 404, /signups/);
    expectError(await request(ctx.app).delete(metricsPath("/signups")).set(bearer()), 404, /signups/);
    expect(await ctx.db.sql.query("SELECT 1 FROM business_metric_values WHERE organization_id = $1 AND metric_name = 'signups'", [org])).toEqual([]);
    // Created again: no values left from before.
    await putMetric("signups", { unit: "signup" }).expect(200);
    expect(await values("signups", "2026-10-01", "2026-10-02")).toEqual([]);
  });

  it("answers 400s naming the path: the name, the unit, the dimension key", async () => {
    expectError(await putMetric("Orders", { unit: "order" }), 400, /name/);
    expectError(await putMetric("orders", {}), 400, /unit/);
    expectError(await putMetric("orders", { unit: "order", dimension: "Team!" }), 400, /dimension/);
  });

  it("adds with sum and replaces with replace, per (date, label)", async () => {
    await putMetric("orders", { unit: "order", dimension: "team" }).expect(200);
    const first = await postValues("orders", {
      mode: "sum",
      values: [
        { date: "2026-09-01", amount: "10", label: "web" },
        { date: "2026-09-01", amount: 2.5, label: "web" },
        { date: "2026-09-02", amount: "7" },
      ],
    }).expect(200);
    // One request's amounts of the same (date, label) are added first: web on Sep 1 is 10 + 2.5 = 12.5.
    expect(first.body.data).toEqual({ name: "orders", mode: "sum", received: 3, stored: 2, first_date: "2026-09-01", last_date: "2026-09-02" });
    // sum again: 12.5 + 0.5 = 13 (mode defaults to sum).
    await postValues("orders", { values: [{ date: "2026-09-01", amount: "0.5", label: "web" }] }).expect(200);
    expect(await values("orders", "2026-09-01", "2026-09-04")).toEqual([
      { date: "2026-09-01", label: "web", amount: "13" },
      { date: "2026-09-02", label: null, amount: "7" },
    ]);
    // replace: web on Sep 1 becomes 4 (not 13 + 4); the unlabelled 7 of Sep 2 is not among the pairs given and stays.
    await postValues("orders", {
      mode: "replace",
      values: [
        { date: "2026-09-01", amount: "4", label: "web" },
        { date: "2026-09-03", amount: "1", label: "data" },
      ],
    }).expect(200);
    expect(await values("orders", "2026-09-01", "2026-09-04")).toEqual([
      { date: "2026-09-01", label: "web", amount: "4" },
      { date: "2026-09-02", label: null, amount: "7" },
      { date: "2026-09-03", label: "data", amount: "1" },
    ]);
    // A range reads only its days: [Sep 2, Sep 3).
    expect(await values("orders", "2026-09-02", "2026-09-03")).toEqual([{ date: "2026-09-02", label: null, amount: "7" }]);
    // Without a range: the current UTC month up to today.
    const today = new Date().toISOString().slice(0, 10);
    const current = await request(ctx.app).get(metricsPath("/orders/values")).set(bearer()).expect(200);
    expect(current.body.data).toMatchObject({ name: "orders", unit: "order", start: `${today.slice(0, 7)}-01` });
    expect(Date.parse(current.body.data.end) - Date.parse(today)).toBe(86_400_000);
  });

  it("takes CSV with the header date,amount,label, the mode from ?mode= (default sum)", async () => {
    await putMetric("visits", { unit: "visit" }).expect(200);
    const posted = await postCsv("visits", "date,amount,label\n2026-09-01,3,web\n2026-09-01,1.25,\n\n2026-09-02,2,web\n").expect(200);
    expect(posted.body.data).toMatchObject({ mode: "sum", received: 3, stored: 3 });
    // Columns in another order, and the label column left out; sum: web on Sep 1 is 3 + 2 = 5.
    await postCsv("visits", "Label,Date,Amount\nweb,2026-09-01,2\n").expect(200);
    await postCsv("visits", "date,amount\n2026-09-02,10\n", "?mode=replace").expect(200);
    expect(await values("visits", "2026-09-01", "2026-09-03")).toEqual([
      { date: "2026-09-01", label: null, amount: "1.25" },
      { date: "2026-09-01", label: "web", amount: "5" },
      { date: "2026-09-02", label: null, amount: "10" },
      { date: "2026-09-02", label: "web", amount: "2" },
    ]);
  });

  it("refuses bad values with a 400 naming the path (JSON) or the line and column (CSV), storing nothing", async () => {
    const before = await values("orders", "2026-01-01", "2026-12-31");
    const bad = (amount: unknown, date = "2026-09-05") =>
      postValues("orders", {
        values: [
          { date: "2026-09-05", amount: "1" },
          { date, amount },
        ],
      });
    expectError(await bad("1", "2026-02-30"), 400, /values\.1\.date/);
    expectError(await bad("-1"), 400, /values\.1\.amount/);
    expectError(await bad(-1), 400, /values\.1\.amount/);
    expectError(await bad("1e3"), 400, /values\.1\.amount/);
    expectError(await bad("0.12345678901"), 400, /values\.1\.amount/);
    expectError(await postValues("orders", { values: [{ date: "2026-09-05", amount: "1", label: "" }] }), 400, /values\.0\.label/);
    expectError(await postValues("orders", { values: [] }), 400, /values/);
    expectError(await postValues("orders", { mode: "add", values: [{ date: "2026-09-05", amount: "1" }] }), 400, /mode/);
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ date: "2026-09-05", amount: String(i) }));
    expectError(await postValues("orders", { values: tooMany }), 400, /values: .*10000/);
    expectError(await postCsv("orders", "date,amount,label\n2026-09-05,1,web\n2026-09-06,-2,web\n"), 400, /line 3, column amount/);
    expectError(await postCsv("orders", "date,amount,label\n2026-13-01,1,web\n"), 400, /line 2, column date/);
    expectError(await postCsv("orders", "date,amount,label\n2026-09-05,1,web,extra\n"), 400, /line 2/);
    expectError(await postCsv("orders", 'date,amount,label\n2026-09-05,"1,web\n'), 400, /line 2/);
    expectError(await postCsv("orders", "day,amount\n2026-09-05,1\n"), 400, /line 1: unknown column "day"/);
    expectError(await postCsv("orders", "date,label\n2026-09-05,web\n"), 400, /line 1: the header has no amount column/);
    expectError(await postCsv("orders", "date,amount\n"), 400, /line 1: no rows/);
    expectError(await postCsv("orders", "date,amount\n2026-09-05,1\n", "?mode=add"), 400, /mode/);
    const conflicting = await request(ctx.app)
      .post(metricsPath("/orders/values?mode=replace"))
      .set(bearer())
      .send({ mode: "sum", values: [{ date: "2026-09-05", amount: "1" }] });
    expectError(conflicting, 400, /mode: the body's mode is sum/);
    const csvRows = `date,amount\n${"2026-09-05,1\n".repeat(10_001)}`;
    expectError(await postCsv("orders", csvRows), 400, /line 10002: a request holds at most 10000 rows/);
    const huge = `date,amount,label\n${`2026-09-05,1,${"x".repeat(100)}\n`.repeat(40_000)}`;
    expectError(await postCsv("orders", huge), 413, /larger than/);
    expectError(await request(ctx.app).post(metricsPath("/orders/values")).set(bearer()).set("Content-Type", "text/plain").send("x"), 415);
    expectError(await postValues("nothing", { values: [{ date: "2026-09-05", amount: "1" }] }), 404, /nothing/);
    expectError(await request(ctx.app).get(metricsPath("/orders/values?start=2026-01-01&end=2027-03-01")).set(bearer()), 400, /end: .*400 days/);
    expectError(await request(ctx.app).get(metricsPath("/orders/values?start=2026-01-02&end=2026-01-01")).set(bearer()), 400, /end/);
    expect(await values("orders", "2026-01-01", "2026-12-31")).toEqual(before);
  });

  it("takes 10000 amounts in one request, a JSON body beyond the 1 MiB of other bodies, and as CSV", async () => {
    await putMetric("requests", { unit: "request", dimension: "team" }).expect(200);
    // 100 days x 100 labels of 100 characters: about 1.6 MB of JSON.
    const label = (i: number) => `${String(i).padStart(3, "0")}${"x".repeat(97)}`;
    const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const batch = Array.from({ length: 10_000 }, (_, i) => ({ date: day(Math.floor(i / 100)), amount: "1.25", label: label(i % 100) }));
    expect(JSON.stringify({ values: batch }).length).toBeGreaterThan(1024 * 1024);
    const json = await postValues("requests", { mode: "replace", values: batch }).expect(200);
    expect(json.body.data).toMatchObject({ received: 10_000, stored: 10_000, first_date: "2026-01-01", last_date: "2026-04-10" });
    const csv = `date,amount,label\n${batch.map((v) => `${v.date},0.75,${v.label}`).join("\n")}\n`;
    await postCsv("requests", csv).expect(200);
    // Each pair: 1.25 replaced in, then 0.75 added: 2. Over 100 days x 100 labels: 20000.
    const [{ n, total }] = await ctx.db.sql.query<{ n: string; total: string }>(
      "SELECT count(*)::text AS n, sum(amount)::text AS total FROM business_metric_values WHERE organization_id = $1 AND metric_name = 'requests' AND amount = 2",
      [org],
    );
    expect([n, new Decimal(total).toFixed()]).toEqual(["10000", "20000"]);
  });

  it("never loses an addition to concurrent identical sum requests, and replays an Idempotency-Key once", async () => {
    await putMetric("clicks", { unit: "click" }).expect(200);
    // Two pairs, given in either order: the writers lock them in one order, so none deadlocks.
    const pairs = [
      { date: "2026-09-11", amount: "2", label: "data" },
      { date: "2026-09-10", amount: "1.5", label: "web" },
    ];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => postValues("clicks", { mode: "sum", values: i % 2 ? pairs : [...pairs].reverse() })));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    // 8 x 1.5 = 12 and 8 x 2 = 16.
    expect(await values("clicks", "2026-09-10", "2026-09-12")).toEqual([
      { date: "2026-09-10", label: "web", amount: "12" },
      { date: "2026-09-11", label: "data", amount: "16" },
    ]);
    const body = { mode: "sum", values: [{ date: "2026-09-10", amount: "1.5", label: "web" }] };
    const once = () => postValues("clicks", body).set("Idempotency-Key", "clicks-once");
    await once().expect(200);
    const again = await once().expect(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const csvOnce = () => postCsv("clicks", "date,amount,label\n2026-09-10,1,web\n").set("Idempotency-Key", "clicks-csv-once");
    await csvOnce().expect(200);
    expect((await csvOnce().expect(200)).headers["idempotent-replayed"]).toBe("true");
    // 12 + 1.5 (the JSON once) + 1 (the CSV once) = 14.5.
    expect(await values("clicks", "2026-09-10", "2026-09-11")).toEqual([{ date: "2026-09-10", label: "web", amount: "14.5" }]);
  });

  it("lets every role read and only owners and admins write; another organization's metric is out of reach", async () => {
    const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member", tenantIds: [tenantA] });
    const viewer = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "viewer", tenantIds: [tenantA] });
    const admin = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "admin" });
    for (const { token } of [member, viewer]) {
      expectError(await putMetric("orders", { unit: "order" }, token), 403);
      expectError(await postValues("orders", { values: [{ date: "2026-09-05", amount: "1" }] }, token), 403);
      expectError(await postCsv("orders", "date,amount\n2026-09-05,1\n", "", token), 403);
      expectError(await request(ctx.app).delete(metricsPath("/orders")).set(bearer(token)), 403);
      await request(ctx.app).get(metricsPath()).set(bearer(token)).expect(200);
      await request(ctx.app).get(metricsPath("/orders")).set(bearer(token)).expect(200);
      expect(await values("orders", "2026-09-01", "2026-09-02", token)).toEqual([{ date: "2026-09-01", label: "web", amount: "4" }]);
    }
    await putMetric("admin_made", { unit: "thing" }, admin.token).expect(200);
    await postValues("admin_made", { values: [{ date: "2026-09-05", amount: "1" }] }, admin.token).expect(200);

    const other = await signUp(ctx, { company: "Other Org" });
    for (const res of [
      await request(ctx.app).get(metricsPath("/orders")).set(bearer(other.token)),
      await request(ctx.app).get(metricsPath("/orders/values?start=2026-09-01&end=2026-09-02")).set(bearer(other.token)),
      await request(ctx.app).put(metricsPath("/orders")).set(bearer(other.token)).send({ unit: "x" }),
      await request(ctx.app)
        .post(metricsPath("/orders/values"))
        .set(bearer(other.token))
        .send({ values: [{ date: "2026-09-05", amount: "1" }] }),
      await request(ctx.app).delete(metricsPath("/orders")).set(bearer(other.token)),
    ])
      expectError(res, 403);
    // Under its own organization, the name is unknown: no metric, no unit cost.
    expectError(await request(ctx.app).get(metricsPath("/orders", other.organization.id)).set(bearer(other.token)), 404);
    expectError(
      await request(ctx.app).get(`/api/v1/organizations/${other.organization.id}/spend?start=2026-09-01&end=2026-09-02&per=orders`).set(bearer(other.token)),
      400,
      /per: no business metric orders/,
    );
    expect(await values("orders", "2026-09-01", "2026-09-02")).toEqual([{ date: "2026-09-01", label: "web", amount: "4" }]);
  });

  it("holds at most 100 metrics per organization (409 limit_reached)", async () => {
    const other = await signUp(ctx, { company: "Many Metrics" });
    for (let i = 0; i < 100; i++)
      await request(ctx.app)
        .put(metricsPath(`/m${i}`, other.organization.id))
        .set(bearer(other.token))
        .send({ unit: "u" })
        .expect(200);
    const refused = await request(ctx.app).put(metricsPath("/m100", other.organization.id)).set(bearer(other.token)).send({ unit: "u" });
    expectError(refused, 409, /at most 100/);
    expect(refused.headers["x-error-code"]).toBe("limit_reached");
    // Changing one of the 100 is no new metric.
    await request(ctx.app).put(metricsPath("/m0", other.organization.id)).set(bearer(other.token)).send({ unit: "v" }).expect(200);
  });
});

describe("unit cost and the metric split", () => {
  // The bill: Oct 1 tenant A web 300, data 100, platform 90; Oct 2 tenant A web 200, data 100;
  // Oct 3 tenant B web 30. Orders (labelled by team): Oct 1 web 50, data 150; Oct 2 web 100,
  // data 0; none on Oct 3.
  const RANGE = "start=2026-10-01&end=2026-10-03";
  beforeAll(async () => {
    const vm = (tenant: string, day: string, cost: string, team: string) => dayLine(tenant, day, cost, { serviceName: "VMs", tags: { team } });
    await seedSpend(ctx, org, [
      vm(tenantA, "2026-10-01", "300", "web"),
      vm(tenantA, "2026-10-01", "100", "data"),
      vm(tenantA, "2026-10-01", "90", "platform"),
      vm(tenantA, "2026-10-02", "200", "web"),
      vm(tenantA, "2026-10-02", "100", "data"),
      vm(tenantB, "2026-10-03", "30", "web"),
    ]);
    await postValues("orders", {
      mode: "replace",
      values: [
        { date: "2026-10-01", amount: "50", label: "web" },
        { date: "2026-10-01", amount: "150", label: "data" },
        { date: "2026-10-02", amount: "100", label: "web" },
        { date: "2026-10-02", amount: "0", label: "data" },
      ],
    }).expect(200);
    const put = await request(ctx.app)
      .put(`/api/v1/organizations/${org}/dimensions/team`)
      .set(bearer())
      .send({
        name: "Team",
        rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
        splits: [{ source: "platform", targets: ["web", "data"], method: "metric", metric: "orders" }],
      });
    expect(put.status).toBe(200);
    await ctx.deps.dimensionApply.runNow();
    const got = await request(ctx.app).get(`/api/v1/organizations/${org}/dimensions/team`).set(bearer()).expect(200);
    expect(got.body.data.status).toBe("applied");
  });

  it("divides each period's cost by the metric's total that period, exactly, per per_scale", async () => {
    const res = await spend(`${RANGE}&granularity=day&per=orders`).expect(200);
    // Oct 1: 490 / (50 + 150) = 2.45. Oct 2: 300 / (100 + 0) = 3. Total: 790 / 300 = 2.6333333333 (2.633... to 10 places).
    expect(res.body.data.rows.map((r: Row) => [r.period_start.slice(0, 10), r.cost, r.metric_amount, r.unit_cost])).toEqual([
      ["2026-10-01", "490", "200", "2.45"],
      ["2026-10-02", "300", "100", "3"],
    ]);
    expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "790", metric_amount: "300", unit_cost: "2.6333333333" }]);
    expect(res.body.data.per).toEqual({ metric: "orders", unit: "order", scale: 1, labelled_by: null });
    const perThousand = await spend(`${RANGE}&granularity=none&per=orders&per_scale=1000`).expect(200);
    // 790 x 1000 / 300 = 2633.3333333333 (rounded half up at 10 places).
    expect(perThousand.body.data.totals[0]).toMatchObject({ metric_amount: "300", unit_cost: "2633.3333333333" });
    // Oct 2 + Oct 3 per 100 orders: 330 x 100 / 100 = 330.
    const late = await spend("start=2026-10-02&end=2026-10-04&granularity=none&per=orders&per_scale=100").expect(200);
    expect(late.body.data.totals[0]).toMatchObject({ cost: "330", metric_amount: "100", unit_cost: "330" });
  });

  it("is null when the metric is 0 or missing for the row", async () => {
    const res = await spend(`start=2026-10-01&end=2026-10-04&granularity=day&group_by=dimension:team&per=orders`).expect(200);
    const byDay = (day: string, team: string) => res.body.data.rows.find((r: Row) => r.period_start.startsWith(day) && r.group["dimension:team"] === team);
    // Oct 2 data: 100 of cost over 0 orders: no unit cost. Oct 3 web: no orders stored that day at all.
    expect(byDay("2026-10-02", "data")).toMatchObject({ cost: "100", metric_amount: "0", unit_cost: null });
    expect(byDay("2026-10-03", "web")).toMatchObject({ cost: "30", metric_amount: null, unit_cost: null });
    // Oct 1 web: 300 + 22.5 of the platform (below) = 322.5, over 50 orders: 6.45.
    expect(byDay("2026-10-01", "web")).toMatchObject({ cost: "322.5", metric_amount: "50", unit_cost: "6.45" });
  });

  it("shares a metric split's source by the labelled amounts that day, with the same total as without the dimension", async () => {
    const res = await spend(`${RANGE}&granularity=none&group_by=dimension:team`).expect(200);
    // Oct 1: platform's 90 by orders web 50 : data 150 -> web 90 x 50/200 = 22.5, data 67.5 (proportional
    // to cost would be 67.5 / 22.5, even 45 / 45). web 300 + 200 + 22.5 = 522.5; data 100 + 100 + 67.5 = 267.5.
    expect(
      res.body.data.rows.map((r: Row & { shared_in: string; shared_out: string }) => [r.group["dimension:team"], r.cost, r.shared_in, r.shared_out]),
    ).toEqual([
      ["web", "522.5", "22.5", "0"],
      ["data", "267.5", "67.5", "0"],
      ["platform", "0", "0", "90"],
    ]);
    for (const query of [`${RANGE}&granularity=none`, `${RANGE}&granularity=day&group_by=service_name`, "start=2026-09-15&end=2026-10-15&granularity=month"]) {
      const [split, direct, plain] = await Promise.all([
        spend(`${query}&group_by=dimension:team`).expect(200),
        spend(`${query}&group_by=dimension:team&allocation=direct`).expect(200),
        spend(query).expect(200),
      ]);
      const sum = (rows: Row[]) => rows.reduce((total, r) => total.plus(r.cost), new Decimal(0)).toFixed();
      expect({ query, split: sum(split.body.data.rows), direct: sum(direct.body.data.rows) }).toEqual({
        query,
        split: plain.body.data.totals[0].cost,
        direct: plain.body.data.totals[0].cost,
      });
    }
  });

  it("divides each group of the labelling dimension by its own label's amount", async () => {
    const res = await spend(`${RANGE}&granularity=none&group_by=dimension:team&per=orders`).expect(200);
    // web 522.5 / (50 + 100) = 3.4833333333; data 267.5 / (150 + 0) = 1.7833333333; platform: no orders
    // labelled platform. Total: 790 / 300 (every label) = 2.6333333333.
    expect(res.body.data.rows.map((r: Row) => [r.group["dimension:team"], r.cost, r.metric_amount, r.unit_cost])).toEqual([
      ["web", "522.5", "150", "3.4833333333"],
      ["data", "267.5", "150", "1.7833333333"],
      ["platform", "0", null, null],
    ]);
    expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "790", metric_amount: "300", unit_cost: "2.6333333333" }]);
    expect(res.body.data.per).toMatchObject({ labelled_by: "dimension:team" });
    // Filtered to web (not grouped): web's cost over web's orders, rows and total: 522.5 / 150.
    const web = await spend(`${RANGE}&granularity=none&dimension:team=web&per=orders`).expect(200);
    expect(web.body.data.totals).toEqual([{ currency: "USD", cost: "522.5", metric_amount: "150", unit_cost: "3.4833333333" }]);
    // The tenant view: tenant A's 790 over every order.
    const tenant = await request(ctx.app)
      .get(`/api/v1/tenant/spend?${RANGE}&granularity=none&per=orders`)
      .set(bearer())
      .set("X-Service-Tenant-ID", tenantA)
      .expect(200);
    expect(tenant.body.data.totals[0]).toMatchObject({ cost: "790", metric_amount: "300", unit_cost: "2.6333333333" });
  });

  it("finds the labelling dimension from the labels when the metric names none, and divides by the total when it names another", async () => {
    await putMetric("users", { unit: "user" }).expect(200);
    await postValues("users", {
      values: [
        { date: "2026-10-01", amount: "10", label: "web" },
        { date: "2026-10-02", amount: "15", label: "web" },
        { date: "2026-10-01", amount: "5", label: "data" },
      ],
    }).expect(200);
    const byLabels = await spend(`${RANGE}&granularity=none&group_by=dimension:team&per=users`).expect(200);
    // web 522.5 / 25 = 20.9; data 267.5 / 5 = 53.5.
    expect(byLabels.body.data.rows.slice(0, 2).map((r: Row) => [r.group["dimension:team"], r.metric_amount, r.unit_cost])).toEqual([
      ["web", "25", "20.9"],
      ["data", "5", "53.5"],
    ]);
    expect(byLabels.body.data.per.labelled_by).toBe("dimension:team");
    await putMetric("users", { unit: "user", dimension: "product" }).expect(200);
    const byTotal = await spend(`${RANGE}&granularity=none&group_by=dimension:team&per=users`).expect(200);
    // Labelled by another dimension: every group over the whole 30 users: web 522.5 / 30 = 17.4166666667 (17.41666... rounded up).
    expect(byTotal.body.data.rows[0]).toMatchObject({ cost: "522.5", metric_amount: "30", unit_cost: "17.4166666667" });
    expect(byTotal.body.data.per.labelled_by).toBeNull();
  });

  it("answers 400s naming per and per_scale", async () => {
    expectError(await spend(`${RANGE}&per=nothing`), 400, /per: no business metric nothing/);
    expectError(await spend(`${RANGE}&per=Orders`), 400, /per/);
    expectError(await spend(`${RANGE}&per=orders&per_scale=7`), 400, /per_scale/);
    expectError(await spend(`${RANGE}&per_scale=100`), 400, /per_scale: .*needs per/);
  });

  it("shares the split's pieces by the metric in the export and the preview too", async () => {
    const res = await request(ctx.app).get(`/api/v1/organizations/${org}/spend/export?${RANGE}&dimensions=team&allocation=split`).set(bearer()).expect(200);
    const pieces = (parse(res.text, { columns: true }) as Record<string, string>[]).filter((row) => row.AllocatedMethodId !== "");
    // The platform's 90 as web 22.5 (ratio 0.25) and data 67.5 (0.75).
    expect(pieces.map((row) => [row.x_Dimension_team, row.BilledCost, row.AllocatedMethodDetails]).sort()).toEqual(
      [
        ["web", "22.5", '{"Elements":[{"AllocatedRatio":0.25}]}'],
        ["data", "67.5", '{"Elements":[{"AllocatedRatio":0.75}]}'],
      ].sort(),
    );
    const preview = await request(ctx.app)
      .post(`/api/v1/organizations/${org}/dimensions/team/preview?${RANGE}`)
      .set(bearer())
      .send({
        name: "Team",
        rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
        splits: [{ source: "platform", targets: ["web", "data"], method: "metric", metric: "orders" }],
      })
      .expect(200);
    expect(preview.body.data.values.map((v: { value: string; cost: string; shared_in: string }) => [v.value, v.cost, v.shared_in])).toEqual([
      ["data", "267.5", "67.5"],
      ["platform", "0", "0"],
      ["web", "522.5", "22.5"],
    ]);
  });

  it("shares evenly once the metric is gone", async () => {
    await putMetric("gone", { unit: "thing" }).expect(200);
    await postValues("gone", { values: [{ date: "2026-10-01", amount: "1", label: "web" }] }).expect(200);
    await request(ctx.app).delete(metricsPath("/gone")).set(bearer()).expect(204);
    const preview = await request(ctx.app)
      .post(`/api/v1/organizations/${org}/dimensions/team/preview?${RANGE}`)
      .set(bearer())
      .send({
        name: "Team",
        rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
        splits: [{ source: "platform", targets: ["web", "data"], method: "metric", metric: "gone" }],
      })
      .expect(200);
    // No amounts: 90 / 2 = 45 each.
    expect(preview.body.data.values.map((v: { value: string; shared_in: string }) => [v.value, v.shared_in])).toEqual([
      ["data", "45"],
      ["platform", "0"],
      ["web", "45"],
    ]);
  });
});
