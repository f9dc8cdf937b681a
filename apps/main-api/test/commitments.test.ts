// Commitments (docs/api.md, "Commitments"; docs/commitments.md): utilization per commitment,
// coverage by group and purchase recommendations, over FOCUS bills imported through the real
// import route, with commitment rates registered in a real pricing API.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Decimal } from "@cloudcost/decimal";
import request from "supertest";
import { referenceFigures, referenceRateFigures } from "./helpers/commitment-reference";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { registerCommitmentRates } from "./helpers/commitment-rates";
import { focusCsvText } from "./helpers/focus-files";
import { addUser, signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { rollupsMatchLines } from "./helpers/rollup";

let pricing: RunningPricingApi;
let ctx: TestContext;
let org: SignedUp;
let other: SignedUp;
let secondTenant: string;
let member: string;

const EXTRA = [
  "PricingCategory",
  "SubAccountId",
  "RegionId",
  "CommitmentDiscountId",
  "CommitmentDiscountCategory",
  "CommitmentDiscountType",
  "CommitmentDiscountStatus",
];
const PLAN = "arn:aws:savingsplans::111122223333:savingsplan/sp-commit";
const HOUR_MS = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const OCTOBER = Date.parse("2026-10-01T00:00:00Z");
const bill = {
  ProviderName: "AWS",
  PublisherName: "AWS",
  ServiceName: "Amazon EC2",
  ServiceCategory: "Compute",
  RegionId: "us-east-1",
  BillingAccountId: "payer-1",
};

/**
 * 720 eligible hours of October: hours 0-499 covered by the plan (PricingCategory Committed, list
 * 1.00, effective 0.70), hours 500-719 on demand (list and effective 1.00); and 100 Unused hours of
 * the plan (effective 0.70, no list cost). Hours 0-359 are sub-account team-a (the first tenant),
 * the rest team-b (the second tenant).
 */
function octoberBill(billingAccount = "payer-1"): string {
  const rows: Record<string, string>[] = [];
  for (let h = 0; h < 720; h++) {
    const covered = h < 500;
    rows.push({
      ...bill,
      BillingAccountId: billingAccount,
      ChargePeriodStart: at(OCTOBER + h * HOUR_MS),
      ChargePeriodEnd: at(OCTOBER + (h + 1) * HOUR_MS),
      SubAccountId: h < 360 ? "team-a" : "team-b",
      ListCost: "1.00",
      ContractedCost: "1.00",
      BilledCost: covered ? "0" : "1.00",
      EffectiveCost: covered ? "0.70" : "1.00",
      PricingCategory: covered ? "Committed" : "Standard",
      CommitmentDiscountId: covered ? PLAN : "",
      CommitmentDiscountCategory: covered ? "Spend" : "",
      CommitmentDiscountType: covered ? "Compute Savings Plan" : "",
      CommitmentDiscountStatus: covered ? "Used" : "",
    });
  }
  for (let h = 500; h < 600; h++)
    rows.push({
      ...bill,
      BillingAccountId: billingAccount,
      ServiceName: "Savings Plans for AWS Compute usage",
      ChargePeriodStart: at(OCTOBER + h * HOUR_MS),
      ChargePeriodEnd: at(OCTOBER + (h + 1) * HOUR_MS),
      SubAccountId: "team-b",
      ListCost: "0",
      ContractedCost: "0",
      BilledCost: "0",
      EffectiveCost: "0.70",
      PricingCategory: "Committed",
      CommitmentDiscountId: PLAN,
      CommitmentDiscountCategory: "Spend",
      CommitmentDiscountType: "Compute Savings Plan",
      CommitmentDiscountStatus: "Unused",
    });
  return focusCsvText(rows, EXTRA);
}

const upload = (o: SignedUp, body: string) =>
  request(ctx.app)
    .post(`/api/v1/organizations/${o.organization.id}/spend/imports`)
    .set("Authorization", `Bearer ${o.token}`)
    .set("Content-Type", "text/csv")
    .send(body)
    .expect(201);
const get = (o: SignedUp, path: string, token = o.token) =>
  request(ctx.app).get(`/api/v1/organizations/${o.organization.id}/commitments${path}`).set("Authorization", `Bearer ${token}`);

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, PRICING_API_TIMEOUT_MS: "30000" });
  org = await signUp(ctx, { company: "Committed" });
  other = await signUp(ctx, { company: "Elsewhere" });
  const created = await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/tenants`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({ name: "Team B" })
    .expect(201);
  secondTenant = created.body.data.id;
  await request(ctx.app)
    .put(`/api/v1/organizations/${org.organization.id}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({
      rules: [
        { tenant_id: org.tenant.id, sub_account_ids: ["team-a"] },
        { tenant_id: secondTenant, sub_account_ids: ["team-b"] },
      ],
    })
    .expect(200);
  await request(ctx.app)
    .put(`/api/v1/organizations/${other.organization.id}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${other.token}`)
    .send({ rules: [{ tenant_id: other.tenant.id }] })
    .expect(200);
  member = (await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member", tenantIds: [org.tenant.id] })).token;
  await upload(org, octoberBill());
  // Another organization's bill names the same plan and services, with the same hours twice over: it must change nothing here.
  await upload(other, octoberBill("payer-other"));
  await upload(other, octoberBill("payer-other-2"));
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

const OCT = "start=2026-10-01&end=2026-11-01";

describe("GET /organizations/{org_id}/commitments", () => {
  it("answers utilization as used / (used + unused) and net savings as on-demand equivalent - (used + unused)", async () => {
    const res = await get(org, `?${OCT}`).expect(200);
    // used = 500 h x 0.70 = 350.00; unused = 100 h x 0.70 = 70.00; committed = 420.00
    // utilization = 350 / 420 = 500 / 600 = 83.33 %; on-demand equivalent = 500 covered h x contracted 1.00 = 500.00;
    // net savings = 500 - 420 = 80.00 (not 500 - 350: the unused hours were paid too); savings % = 80 / 500 = 16.00 %
    const figures = {
      on_demand_equivalent: "500.00",
      committed_cost: "420.00",
      used_cost: "350.00",
      unused_cost: "70.00",
      utilization_percent: "83.33",
      net_savings: "80.00",
      savings_percent: "16.00",
    };
    expect(res.body.data).toEqual({
      items: [
        {
          commitment_discount_id: PLAN,
          category: "Spend",
          type: "Compute Savings Plan",
          provider: "AWS",
          currency: "USD",
          billing_account_id: "payer-1",
          ...figures,
        },
      ],
      totals: [{ provider: "AWS", currency: "USD", ...figures }],
    });
  });

  it("reads whole days from the roll-up and partial days from the lines alike", async () => {
    // 2026-10-01T12:00 to 2026-10-03T06:00: 42 hours, all covered (hours 12-53 < 500): used 42 x 0.70 = 29.40, no unused hours.
    const res = await get(org, "?start=2026-10-01T12:00:00Z&end=2026-10-03T06:00:00Z").expect(200);
    // On-demand equivalent 42 x 1.00 = 42.00; net savings 42.00 - 29.40 = 12.60; 12.60 / 42 = 30.00 %.
    expect(res.body.data.totals).toEqual([
      {
        provider: "AWS",
        currency: "USD",
        on_demand_equivalent: "42.00",
        used_cost: "29.40",
        unused_cost: "0.00",
        committed_cost: "29.40",
        utilization_percent: "100.00",
        net_savings: "12.60",
        savings_percent: "30.00",
      },
    ]);
    await rollupsMatchLines(ctx, org.organization.id);
  });

  it("counts a bill imported again once (the new import replaces the old one's lines and roll-up rows)", async () => {
    await upload(org, octoberBill());
    const res = await get(org, `?${OCT}`).expect(200);
    expect(res.body.data.totals).toMatchObject([{ committed_cost: "420.00", used_cost: "350.00", unused_cost: "70.00", utilization_percent: "83.33" }]);
    const coverage = await get(org, `/coverage?${OCT}`).expect(200);
    expect(coverage.body.data.totals).toMatchObject([{ covered_on_demand_equivalent: "500.00", on_demand_cost: "220.00" }]);
    await rollupsMatchLines(ctx, org.organization.id);
  });

  it("is for owners and admins", async () => {
    expect((await get(org, `?${OCT}`, member)).status).toBe(403);
    expect((await get(org, `?${OCT}`, other.token)).status).toBe(403);
  });
});

describe("GET /organizations/{org_id}/commitments/coverage", () => {
  it("answers covered on-demand equivalent / (that + eligible on-demand cost), by service, per provider", async () => {
    const res = await get(org, `/coverage?${OCT}`).expect(200);
    // covered = 500 h x contracted 1.00 = 500.00 (the Unused hours are not usage); on demand = 220 h x 1.00 = 220.00;
    // coverage = 500 / (500 + 220) = 69.44 %
    const figures = { provider: "AWS", currency: "USD", covered_on_demand_equivalent: "500.00", on_demand_cost: "220.00", coverage_percent: "69.44" };
    expect(res.body.data).toEqual({ group_by: "service_name", rows: [{ group: "Amazon EC2", ...figures }], totals: [figures] });
  });

  it("reads whole months, whole days and partial days alike", async () => {
    const totals = async (query: string) => (await get(org, `/coverage?${query}`).expect(200)).body.data.totals;
    const october = [{ provider: "AWS", currency: "USD", covered_on_demand_equivalent: "500.00", on_demand_cost: "220.00", coverage_percent: "69.44" }];
    // Whole October from the monthly roll-up, with days (September) and hours (November 20th) around it.
    expect(await totals("start=2026-09-15T07:00:00Z&end=2026-11-20T05:00:00Z")).toEqual(october);
    expect(await totals("start=2026-10-01&end=2026-12-01")).toEqual(october);
    // No whole month: 2026-10-01T12:00 to 2026-10-30T00:00 (hour 29 x 24 = 696) is hours 12-695: 684 eligible, hours
    // 12-499 covered = 488; on demand hours 500-695 = 196; coverage 488 / 684 = 71.345 % = 71.35 %.
    expect(await totals("start=2026-10-01T12:00:00Z&end=2026-10-30")).toEqual([
      { provider: "AWS", currency: "USD", covered_on_demand_equivalent: "488.00", on_demand_cost: "196.00", coverage_percent: "71.35" },
    ]);
  });

  it("by tenant: owners see every tenant, members only theirs", async () => {
    const byTenant = (token: string) => get(org, `/coverage?${OCT}&group_by=tenant`, token).expect(200);
    // First tenant: hours 0-359, all covered: 360 / 360. Second: hours 360-719, covered 360-499: 140 / 360 = 38.89 %.
    const aws = { provider: "AWS", currency: "USD" };
    const first = { ...aws, group: org.tenant.id, covered_on_demand_equivalent: "360.00", on_demand_cost: "0.00", coverage_percent: "100.00" };
    const second = { ...aws, group: secondTenant, covered_on_demand_equivalent: "140.00", on_demand_cost: "220.00", coverage_percent: "38.89" };
    const owner = (await byTenant(org.token)).body.data.rows;
    expect(owner).toEqual([first, second].sort((a, b) => (a.group < b.group ? -1 : 1)));
    const mine = (await byTenant(member)).body.data;
    expect(mine.rows).toEqual([first]);
    expect(mine.totals).toEqual([{ ...aws, covered_on_demand_equivalent: "360.00", on_demand_cost: "0.00", coverage_percent: "100.00" }]);
  });

  it("refuses an unknown group with a 400 naming it", async () => {
    const res = await get(org, `/coverage?${OCT}&group_by=model`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/group_by/);
  });
});

/** A bill of `days` days ending at 2026-10-01 with the given cost per half day (00-12, 12-24), one line each. */
function halfDayBill(days: number, night: string, day: string): string {
  const rows: Record<string, string>[] = [];
  const start = Date.parse("2026-10-01T00:00:00Z") - days * 24 * HOUR_MS;
  for (let d = 0; d < days; d++)
    for (const [offset, cost] of [
      [0, night],
      [12, day],
    ] as const) {
      const from = start + (d * 24 + offset) * HOUR_MS;
      rows.push(onDemandLine(from, from + 12 * HOUR_MS, cost));
    }
  return focusCsvText(rows, EXTRA);
}

/** An on-demand line (Standard, no commitment) of sub-account team-a from `from` to `to` (ms) costing `cost`; `fields` replace the bill's. */
function onDemandLine(from: number, to: number, cost: string, fields: Partial<typeof bill> = {}): Record<string, string> {
  return {
    ...bill,
    ...fields,
    ChargePeriodStart: at(from),
    ChargePeriodEnd: at(to),
    SubAccountId: "team-a",
    ListCost: cost,
    ContractedCost: cost,
    BilledCost: cost,
    EffectiveCost: cost,
    PricingCategory: "Standard",
    CommitmentDiscountId: "",
    CommitmentDiscountCategory: "",
    CommitmentDiscountType: "",
    CommitmentDiscountStatus: "",
  };
}

const RATE = { provider: "aws", commitment_type: "savings_plan", term_months: 12, payment_option: "no_upfront", discount_percent: 30 };

describe("GET /organizations/{org_id}/commitments/recommendations", () => {
  it("a flat 10 USD/h with a 30 % rate recommends 7.00 USD/h and 2,190.00 USD a month", async () => {
    const flat = await signUp(ctx, { company: "Flat" });
    // 10 USD/h as half-day lines of 120.00, spread evenly over their 12 hours.
    await upload(flat, halfDayBill(30, "120", "120"));
    const [rate] = await registerCommitmentRates(pricing, flat.organization.id, [RATE]);
    const res = await get(flat, "/recommendations?lookback_days=30").expect(200);
    // c = 10 x (1 - 0.30) = 7.00 covers every hour: cost = 720 x 7 = 5040; savings = 7200 - 5040 = 2160 over 720 h;
    // a month = 2160 x 730 / 720 = 2190.00; used = 7 every hour: utilization 100 %, coverage 100 %.
    // Break-even (1 - 0.30) x 100 = 70.00 %; no upfront: 0.00; a month of commitment 7 x 730 = 5110.00;
    // ROI 2190 / 5110 = 42.857 % = 42.86 %; every hour's 10.00 is at least 7 / 0.7 = 10: 100 % of hours above break-even.
    // The bill ends 2026-10-01, more than 3 days ago: stale_data.
    expect(res.body.data.items).toEqual([
      {
        rate_id: rate.id,
        commitment_type: "savings_plan",
        term_months: 12,
        payment_option: "no_upfront",
        discount_percent: 30,
        family: null,
        hourly_commitment: "7.00",
        monthly_savings: "2190.00",
        break_even_utilization_percent: "70.00",
        upfront_cost: "0.00",
        monthly_commitment_cost: "5110.00",
        roi_percent: "42.86",
        hours_above_break_even_percent: "100.00",
        expected_utilization_percent: "100.00",
        expected_coverage_percent: "100.00",
        lookback: { start: "2026-09-01T00:00:00.000Z", end: "2026-10-01T00:00:00.000Z", hours: 720, data_through: "2026-10-01T00:00:00.000Z" },
        warnings: ["stale_data"],
      },
    ]);
  });

  it("8 USD/h by night and 16 USD/h by day with a 30 % rate: the optimum is the night's breakpoint", async () => {
    const shifts = await signUp(ctx, { company: "Shifts" });
    // Night 00-12 at 8/h (96 per half day), day 12-24 at 16/h (192).
    await upload(shifts, halfDayBill(30, "96", "192"));
    await registerCommitmentRates(pricing, shifts.organization.id, [RATE, { ...RATE, commitment_type: "reserved_instance", discount_percent: 40 }]);
    const res = await get(shifts, "/recommendations?lookback_days=30&commitment_type=savings_plan&include_curve=true").expect(200);
    // Breakpoints c = E x 0.7: 5.6 and 11.2. Per day (E sum = 12 x 8 + 12 x 16 = 288):
    //   c = 5.6:  cost = 24 x 5.6 + 12 x (16 - 8) = 134.4 + 96 = 230.4, savings 57.6
    //   c = 11.2: cost = 24 x 11.2 = 268.8, savings 19.2
    // Best 5.60; 30 days: 57.6 x 30 = 1728 over 720 h; a month = 1728 x 730 / 720 = 1752.00.
    // Utilization: 5.6 used every hour = 100 %; coverage = (12 x 8 + 12 x 8) / 288 = 192 / 288 = 66.67 %.
    const [item] = res.body.data.items;
    expect(res.body.data.items).toHaveLength(1);
    expect(item).toMatchObject({
      hourly_commitment: "5.60",
      monthly_savings: "1752.00",
      expected_utilization_percent: "100.00",
      expected_coverage_percent: "66.67",
    });
    // The curve comes from the same formula: 21 points from 0 to 2 x 5.60, highest at the recommendation.
    const curve = item.savings_curve as { hourly_commitment: string; monthly_savings: string }[];
    expect(curve).toHaveLength(21);
    expect(curve[0]).toEqual({ hourly_commitment: "0.00", monthly_savings: "0.00" });
    expect(curve[10]).toEqual({ hourly_commitment: "5.60", monthly_savings: "1752.00" });
    expect(Math.max(...curve.map((p) => Number(p.monthly_savings)))).toBe(1752);
  });

  it("rounds the commitment to the better cent when the breakpoint falls between two", async () => {
    const cents = await signUp(ctx, { company: "Cents" });
    await upload(cents, halfDayBill(30, "84", "84")); // 7 USD/h
    await registerCommitmentRates(pricing, cents.organization.id, [{ ...RATE, discount_percent: 33.3 }]);
    const [item] = (await get(cents, "/recommendations").expect(200)).body.data.items;
    // Breakpoint 7 x 0.667 = 4.669 USD/h. Per hour:
    //   c = 4.67: reach 4.67 / 0.667 = 7.0014 >= 7, cost 4.67, savings 2.33
    //   c = 4.66: reach 6.98651, cost 4.66 + (7 - 6.98651) = 4.67349, savings 2.32651
    // So 4.67; a month = 2.33 x 730 = 1700.90; utilization = min(4.67, 7 x 0.667) / 4.67 = 4.669 / 4.67 = 99.98 %; coverage 100 %.
    expect(item).toMatchObject({
      discount_percent: 33.3,
      hourly_commitment: "4.67",
      monthly_savings: "1700.90",
      expected_utilization_percent: "99.98",
      expected_coverage_percent: "100.00",
    });
  });

  it("answers no items without rates, and 503 while the pricing API is down", async () => {
    expect((await get(org, "/recommendations").expect(200)).body.data.items).toEqual([]);
    pricing.down = true;
    try {
      const res = await get(org, "/recommendations");
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
    } finally {
      pricing.down = false;
    }
  });

  it("is for owners and admins", async () => {
    expect((await get(org, "/recommendations", member)).status).toBe(403);
  });
});

describe("recommendations over 100 rates", () => {
  // 90 days of hourly usage ending 2026-10-01 in three series (two AWS regions, one GCP region).
  const DAYS = 90;
  const HOURS = DAYS * 24;
  const START = Date.parse("2026-10-01T00:00:00Z") - HOURS * HOUR_MS;
  const SERIES = [
    { provider: "AWS", service: "Amazon EC2", region: "us-east-1", cost: (h: number) => 4 + (h % 24 < 12 ? 0 : 6) + (h % 7) * 0.35 + ((h * 37) % 11) * 0.07 },
    { provider: "AWS", service: "Amazon EC2", region: "eu-west-1", cost: (h: number) => 2 + ((h * 13) % 17) * 0.21 },
    { provider: "GCP", service: "Compute Engine", region: "us-central1", cost: (h: number) => (h % 24 >= 8 && h % 24 < 20 ? 9.5 : 1.25) + (h % 5) * 0.01 },
  ];
  const costOf = (series: (typeof SERIES)[number], h: number) => series.cost(h).toFixed(2);

  /** 100 rates without a family: every scope of provider (as written, any case), region and category, with discounts, types and terms around them. */
  const RATES = Array.from({ length: 100 }, (_, i) => ({
    provider: ["aws", "AWS", "gcp", "azure"][i % 4],
    // The last four would repeat the first four's scope (the pricing API keeps one rate per scope): a region without usage.
    region: i >= 96 ? "ap-south-1" : [undefined, "us-east-1", "eu-west-1", "us-central1"][(i >> 2) % 4],
    service_category: [undefined, "Compute"][(i >> 4) % 2],
    commitment_type: ["savings_plan", "reserved_instance", "committed_use"][i % 3],
    term_months: [12, 36][i % 2],
    payment_option: ["no_upfront", "partial_upfront", "all_upfront"][i % 3],
    discount_percent: [30, 33.3, 27.123456789012, 45, 12.5, 100, 0, 72][i % 8],
  }));

  /** The series a rate simulates, summed in exact decimals from the bill itself. */
  function seriesOf(rate: (typeof RATES)[number]): Decimal[] {
    const matching = SERIES.filter(
      (series) => series.provider.toLowerCase() === rate.provider.toLowerCase() && (rate.region === undefined || rate.region === series.region),
    );
    return Array.from({ length: HOURS }, (_, h) => matching.reduce((sum, series) => sum.plus(costOf(series, h)), new Decimal(0)));
  }

  let many: SignedUp;
  let stored: { id: string }[];
  beforeAll(async () => {
    many = await signUp(ctx, { company: "Many rates" });
    const rows: Record<string, string>[] = [];
    for (const series of SERIES)
      for (let h = 0; h < HOURS; h++) {
        const fields = { ProviderName: series.provider, PublisherName: series.provider, ServiceName: series.service, RegionId: series.region };
        rows.push(onDemandLine(START + h * HOUR_MS, START + (h + 1) * HOUR_MS, costOf(series, h), fields));
      }
    await upload(many, focusCsvText(rows, EXTRA));
    stored = await registerCommitmentRates(pricing, many.organization.id, RATES);
  }, 120_000);

  /**
   * The statements the main API sends to its database while answering `path`, how long it took,
   * and the longest the event loop was held meanwhile.
   */
  async function statementsOf(path: string) {
    const spy = jest.spyOn(ctx.deps.db.sql, "query");
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    try {
      const started = performance.now();
      const res = await get(many, path).expect(200);
      const ms = performance.now() - started;
      loop.disable();
      return { body: res.body as { data: { items: Record<string, unknown>[] } }, statements: spy.mock.calls.length, ms, heldMs: loop.max / 1e6 };
    } finally {
      loop.disable();
      spy.mockRestore();
    }
  }

  /** What the per-rate arithmetic (helpers/commitment-reference.ts) answers for `rates` over the last `days` days, each (series, discount) computed once. */
  function referenceItems(rates: { id: string; rate: (typeof RATES)[number] }[], days: number) {
    const hours = days * 24;
    const figures = new Map<string, ReturnType<typeof referenceFigures>>();
    return rates.map(({ id, rate }) => {
      const key = JSON.stringify([rate.provider.toLowerCase(), rate.region, rate.discount_percent]);
      if (!figures.has(key)) figures.set(key, referenceFigures(seriesOf(rate).slice(HOURS - hours), rate.discount_percent, true));
      return {
        rate_id: id,
        commitment_type: rate.commitment_type,
        term_months: rate.term_months,
        payment_option: rate.payment_option,
        discount_percent: rate.discount_percent,
        family: null,
        lookback: {
          start: new Date(START + (HOURS - hours) * HOUR_MS).toISOString(),
          end: "2026-10-01T00:00:00.000Z",
          hours,
          // The bill has no Azure usage at all.
          data_through: rate.provider === "azure" ? null : "2026-10-01T00:00:00.000Z",
        },
        warnings: ["stale_data"],
        ...figures.get(key),
        ...rateFigures(figures.get(key) as ReturnType<typeof referenceFigures>, seriesOf(rate).slice(HOURS - hours), rate),
      };
    });
  }
  /** The figures of a rate's term and payment option besides the purchase figures (helpers/commitment-reference.ts). */
  function rateFigures(purchase: ReturnType<typeof referenceFigures>, series: Decimal[], rate: (typeof RATES)[number]) {
    const { savings_curve: _curve, ...all } = referenceRateFigures(series, rate, false);
    expect(all.hourly_commitment).toBe(purchase.hourly_commitment);
    return all;
  }
  const byRate = (items: { rate_id: unknown }[]) => [...items].sort((a, b) => String(a.rate_id).localeCompare(String(b.rate_id)));
  const storedRates = () => stored.map((entry, i) => ({ id: entry.id, rate: RATES[i] as (typeof RATES)[number] }));

  it("answers every rate with the figures of the per-rate arithmetic, curve included", async () => {
    // A week, so that the reference (one pass over the hours per point, per rate) stays quick.
    const res = await get(many, "/recommendations?lookback_days=7&include_curve=true").expect(200);
    expect(res.body.data.items).toHaveLength(100);
    expect(byRate(res.body.data.items)).toEqual(byRate(referenceItems(storedRates(), 7)));
  }, 120_000);

  it("answers 100 rates over 90 days with the curve in one series statement, in about a second", async () => {
    const all = await statementsOf(`/recommendations?lookback_days=${DAYS}&include_curve=true`);
    // Under 2 s is the target (about 0.5 s here); the bound leaves room for a loaded machine. Before: 94 s, a statement and a pass per rate.
    expect(all.ms).toBeLessThan(5_000);
    // Each series is sorted, and ten rates evaluated, between turns of the event loop: it is held for
    // tens of milliseconds at a time (PGlite's statement runs on it too; before, a rate held it about 1 s).
    expect(all.heldMs).toBeLessThan(2_000);
    const items = all.body.data.items;
    expect(items).toHaveLength(100);
    // A few of them checked against the reference over the 90 days too: one per series (AWS, us-east-1, eu-west-1, GCP).
    const sample = storedRates().filter(({ rate }) => rate.discount_percent === 30 || rate.discount_percent === 27.123456789012);
    const wanted = referenceItems(
      [...new Map(sample.map((entry) => [JSON.stringify([entry.rate.provider.toLowerCase(), entry.rate.region]), entry])).values()],
      DAYS,
    );
    expect(wanted.length).toBeGreaterThanOrEqual(4);
    expect(byRate(items.filter((item) => wanted.some((w) => w.rate_id === item.rate_id)))).toEqual(byRate(wanted));
    // The same statements for 100 rates as for a third of them: the lookback's end and one series statement.
    const some = await statementsOf(`/recommendations?lookback_days=${DAYS}&include_curve=true&commitment_type=committed_use`);
    expect(some.body.data.items.length).toBeLessThan(40);
    expect({ all: all.statements, some: some.statements }).toEqual({ all: some.statements, some: some.statements });
    expect(all.statements).toBeLessThanOrEqual(3);
  }, 120_000);
});
