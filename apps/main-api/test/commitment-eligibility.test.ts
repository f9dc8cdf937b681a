// Commitments as the providers compute them (docs/commitments.md): one definition of the usage a
// commitment could cover (Usage-Based Compute usage measured in hours, on demand or committed, of
// the commitment's provider; never spot, storage or data transfer billed under a compute service)
// for utilization, coverage and the purchase recommendation; net savings as AWS reports them; family
// rates. Over FOCUS bills imported through the real import route, with commitment rates registered
// in a real pricing API.
import request from "supertest";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { registerCommitmentRates } from "./helpers/commitment-rates";
import { vm } from "./helpers/compute-fleet";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { rollupsMatchLines } from "./helpers/rollup";

let pricing: RunningPricingApi;
let ctx: TestContext;

const EXTRA = [
  "PricingCategory",
  "ChargeFrequency",
  "ConsumedUnit",
  "ResourceId",
  "RegionId",
  "CommitmentDiscountId",
  "CommitmentDiscountCategory",
  "CommitmentDiscountType",
  "CommitmentDiscountStatus",
];
const PLAN = "arn:aws:savingsplans::111122223333:savingsplan/sp-seven";
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DAYS = 28;
const at = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
/** The scenario's 28 days end at today's UTC midnight: fresh data, no stale_data warning. */
const END = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const START = END - DAYS * DAY_MS;

const NONE = { CommitmentDiscountId: "", CommitmentDiscountCategory: "", CommitmentDiscountType: "", CommitmentDiscountStatus: "" };
const ec2 = {
  ProviderName: "AWS",
  PublisherName: "AWS",
  ServiceName: "Amazon EC2",
  ServiceCategory: "Compute",
  RegionId: "us-east-1",
  BillingAccountId: "payer-1",
  ChargeFrequency: "Usage-Based",
  PricingUnit: "Hrs",
  ConsumedUnit: "Hrs",
  ResourceId: "",
};
const hour = (h: number) => ({ ChargePeriodStart: at(START + h * HOUR_MS), ChargePeriodEnd: at(START + (h + 1) * HOUR_MS) });
const cost = (value: string, list = value) => ({ ListCost: list, ContractedCost: list, BilledCost: value, EffectiveCost: value });

/**
 * The scenario, 28 days:
 * - a 7 USD/h Compute Savings Plan at 75 % utilization: each hour a Used line (effective 5.25, at
 *   on-demand rates 7.50) and an Unused line (effective 1.75);
 * - EC2 on demand at 4 USD/h for 12 hours a day (hours 0-11);
 * - EC2 spot at 1 USD/h for the other 12 hours (never eligible);
 * - 20 USD a day of EBS billed under "Amazon EC2", category Storage, in GB-months (never eligible);
 * - an Azure VM on demand at 2 USD/h (another provider: never in AWS's figures).
 */
function scenarioBill(): string {
  const rows: Record<string, string>[] = [];
  for (let h = 0; h < DAYS * 24; h++) {
    const plan = { ...ec2, ...hour(h), PricingCategory: "Committed", CommitmentDiscountId: PLAN, CommitmentDiscountCategory: "Spend" };
    rows.push({ ...plan, ...cost("5.25", "7.50"), CommitmentDiscountType: "Compute Savings Plan", CommitmentDiscountStatus: "Used" });
    rows.push({
      ...plan,
      ServiceName: "Savings Plans for AWS Compute usage",
      ...cost("1.75", "0"),
      CommitmentDiscountType: "Compute Savings Plan",
      CommitmentDiscountStatus: "Unused",
    });
    if (h % 24 < 12) rows.push({ ...ec2, ...hour(h), ...NONE, ...cost("4.00"), PricingCategory: "Standard" });
    else rows.push({ ...ec2, ...hour(h), ...NONE, ...cost("1.00", "3.00"), PricingCategory: "Dynamic" });
    rows.push({
      ...ec2,
      ...hour(h),
      ...NONE,
      ProviderName: "Microsoft",
      PublisherName: "Microsoft",
      ServiceName: "Virtual Machines",
      RegionId: "eastus",
      BillingAccountId: "azure-1",
      ...cost("2.00"),
      PricingCategory: "Standard",
    });
  }
  for (let d = 0; d < DAYS; d++)
    rows.push({
      ...ec2,
      ...NONE,
      ServiceCategory: "Storage",
      PricingUnit: "GB-Mo",
      ConsumedUnit: "GB-Mo",
      ChargePeriodStart: at(START + d * DAY_MS),
      ChargePeriodEnd: at(START + (d + 1) * DAY_MS),
      ...cost("20.00"),
      PricingCategory: "Standard",
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
const get = (o: SignedUp, path: string) =>
  request(ctx.app).get(`/api/v1/organizations/${o.organization.id}/commitments${path}`).set("Authorization", `Bearer ${o.token}`).expect(200);
const allToFirstTenant = (o: SignedUp) =>
  request(ctx.app)
    .put(`/api/v1/organizations/${o.organization.id}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${o.token}`)
    .send({ rules: [{ tenant_id: o.tenant.id }] })
    .expect(200);

const RATE = { provider: "aws", commitment_type: "savings_plan", term_months: 12, payment_option: "no_upfront", discount_percent: 30 };
const RANGE = `start=${at(START)}&end=${at(END)}`;

let scenario: SignedUp;

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, PRICING_API_TIMEOUT_MS: "30000" });
  scenario = await signUp(ctx, { company: "Scenario" });
  await allToFirstTenant(scenario);
  await upload(scenario, scenarioBill());
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

describe("the issue's scenario: a plan, uncovered EC2 12 hours a day, spot, EBS under EC2 and an Azure VM", () => {
  it("reports the plan's net savings as AWS does: on-demand equivalent - (used + unused)", async () => {
    const { body } = await get(scenario, `?${RANGE}`);
    // 672 hours. used = 672 x 5.25 = 3,528.00; unused = 672 x 1.75 = 1,176.00; committed = 4,704.00 (7 x 672);
    // utilization = 3,528 / 4,704 = 75.00 %; on-demand equivalent = 672 x 7.50 = 5,040.00;
    // net savings = 5,040 - 4,704 = 336.00 (the old "covered list - used" said 5,040 - 3,528 = 1,512.00);
    // savings % = 336 / 5,040 = 6.67 %.
    const figures = {
      on_demand_equivalent: "5040.00",
      used_cost: "3528.00",
      unused_cost: "1176.00",
      committed_cost: "4704.00",
      utilization_percent: "75.00",
      net_savings: "336.00",
      savings_percent: "6.67",
    };
    expect(body.data).toEqual({
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

  it("answers coverage per provider as covered on-demand equivalent / (that + eligible on-demand cost), never counting spot, EBS or Azure in AWS's", async () => {
    const { body } = await get(scenario, `/coverage?${RANGE}`);
    // AWS: covered = 5,040.00; eligible on demand = EC2 4.00 x 12 h x 28 days = 1,344.00 (the spot hours, the
    // 560.00 of EBS and Azure's 1,344.00 are not AWS's eligible usage); coverage = 5,040 / (5,040 + 1,344)
    // = 5,040 / 6,384 = 78.947 % = 78.95 % (the old covered / eligible list cost was 5,040 / 8,288 = 60.81 %).
    // Microsoft: nothing covered; on demand 2.00 x 672 = 1,344.00; coverage 0 / 1,344 = 0.00 %.
    const aws = { provider: "AWS", currency: "USD", covered_on_demand_equivalent: "5040.00", on_demand_cost: "1344.00", coverage_percent: "78.95" };
    const azure = { provider: "Microsoft", currency: "USD", covered_on_demand_equivalent: "0.00", on_demand_cost: "1344.00", coverage_percent: "0.00" };
    expect(body.data).toEqual({
      group_by: "service_name",
      rows: [
        { ...aws, group: "Amazon EC2" },
        { ...azure, group: "Virtual Machines" },
      ],
      totals: [aws, azure],
    });
    await rollupsMatchLines(ctx, scenario.organization.id);
  });

  it("recommends buying nothing: the eligible usage runs half the hours, under the 70 % break-even", async () => {
    const [rate] = await registerCommitmentRates(pricing, scenario.organization.id, [RATE]);
    const { body } = await get(scenario, "/recommendations?lookback_days=28&include_curve=true");
    // E_h = 4.00 in 12 hours of each day, 0 in the others (EBS, spot, the plan's covered hours and Azure are not
    // AWS's eligible on-demand usage). Any c > 0 costs c in every hour and saves at most 0.3 x 4 ... only in half
    // of them: savings(c) = 336 x (c / 0.7 - c) - 336 x c < 0 for c <= 2.80 (and worse above). Buy nothing.
    // The old series spread the EBS over every hour (20 / 24 = 0.8333) and said 0.8333 x 0.7 = 0.58 USD/h.
    const [item] = body.data.items;
    expect(item).toMatchObject({
      rate_id: rate.id,
      family: null,
      hourly_commitment: "0.00",
      monthly_savings: "0.00",
      reason: "no_savings",
      break_even_utilization_percent: "70.00",
      upfront_cost: "0.00",
      monthly_commitment_cost: "0.00",
      roi_percent: null,
      hours_above_break_even_percent: null,
      // AWS's last eligible on-demand hour is 11:00-12:00 of the last day: fresh data, no warning. The lookback ends
      // there (Azure's VM, running to midnight, is no provider of these rates).
      lookback: { end: new Date(END - 12 * HOUR_MS).toISOString(), hours: 672, data_through: new Date(END - 12 * HOUR_MS).toISOString() },
      warnings: [],
    });
    // Every point of the curve above 0 loses money.
    for (const point of item.savings_curve.slice(1)) expect(Number(point.monthly_savings)).toBeLessThan(0);
  });
});

describe("eligibility", () => {
  it("never counts spot: spot usage alone is neither covered nor eligible, and recommends nothing", async () => {
    const spot = await signUp(ctx, { company: "Spot only" });
    await allToFirstTenant(spot);
    const rows = Array.from({ length: 48 }, (_, h) => ({ ...ec2, ...hour(h), ...NONE, ...cost("10.00"), PricingCategory: "Dynamic" }));
    await upload(spot, focusCsvText(rows, EXTRA));
    expect((await get(spot, `/coverage?${RANGE}`)).body.data).toEqual({ group_by: "service_name", rows: [], totals: [] });
    await registerCommitmentRates(pricing, spot.organization.id, [RATE]);
    const [item] = (await get(spot, "/recommendations?lookback_days=2")).body.data.items;
    // No eligible hour at all: nothing to buy, and no data to speak of (stale_data).
    expect(item).toMatchObject({ hourly_commitment: "0.00", reason: "no_savings", lookback: { data_through: null }, warnings: ["stale_data"] });
  });

  it("reports a plan mostly unused as losing money (negative net savings)", async () => {
    const idle = await signUp(ctx, { company: "Idle plan" });
    await allToFirstTenant(idle);
    const rows: Record<string, string>[] = [];
    const plan = {
      ...ec2,
      PricingCategory: "Committed",
      CommitmentDiscountId: PLAN,
      CommitmentDiscountCategory: "Spend",
      CommitmentDiscountType: "Compute Savings Plan",
    };
    // A 1 USD/h plan for 2 days used 4 hours a day (effective 1.00, 1.40 at on-demand rates) and unused the other 20.
    for (let h = 0; h < 48; h++)
      rows.push(
        h % 24 < 4
          ? { ...plan, ...hour(h), ...cost("1.00", "1.40"), CommitmentDiscountStatus: "Used" }
          : { ...plan, ...hour(h), ...cost("1.00", "0"), CommitmentDiscountStatus: "Unused" },
      );
    await upload(idle, focusCsvText(rows, EXTRA));
    const { body } = await get(idle, `?${RANGE}`);
    // used = 8 x 1.00 = 8.00; unused = 40 x 1.00 = 40.00; committed = 48.00; utilization = 8 / 48 = 16.67 %;
    // on-demand equivalent = 8 x 1.40 = 11.20; net savings = 11.20 - 48.00 = -36.80; savings % = -36.80 / 11.20 = -328.57 %.
    expect(body.data.totals).toEqual([
      {
        provider: "AWS",
        currency: "USD",
        on_demand_equivalent: "11.20",
        used_cost: "8.00",
        unused_cost: "40.00",
        committed_cost: "48.00",
        utilization_percent: "16.67",
        net_savings: "-36.80",
        savings_percent: "-328.57",
      },
    ]);
  });

  it("a rate with a family simulates only the lines of that family's resources; one without, every eligible line of its provider", async () => {
    const fleet = await signUp(ctx, { company: "Families" });
    await allToFirstTenant(fleet);
    await request(ctx.app)
      .put("/api/v1/tenant/compute/resources")
      .set("Authorization", `Bearer ${fleet.token}`)
      .set("X-Service-Tenant-ID", fleet.tenant.id)
      .send({ resources: [vm("i-m5", "m5.large"), vm("i-c5", "c5.xlarge")] })
      .expect(200);
    const rows: Record<string, string>[] = [];
    for (let h = 0; h < 48; h++) {
      const line = { ...ec2, ...hour(h), ...NONE, PricingCategory: "Standard" };
      rows.push({ ...line, ResourceId: "i-m5", ...cost("10.00") });
      rows.push({ ...line, ResourceId: "i-c5", ...cost("5.00") });
      // A line of no known resource: only rates without a family see it.
      rows.push({ ...line, ResourceId: "i-unknown", ...cost("3.00") });
    }
    await upload(fleet, focusCsvText(rows, EXTRA));
    const [m5, c5, any] = await registerCommitmentRates(pricing, fleet.organization.id, [
      { ...RATE, family: "m5" },
      { ...RATE, family: "c5", payment_option: "all_upfront" },
      RATE,
    ]);
    const items = (await get(fleet, "/recommendations?lookback_days=2")).body.data.items as Record<string, unknown>[];
    const byId = Object.fromEntries(items.map((item) => [item.rate_id, item]));
    // m5: flat 10.00/h -> 10 x 0.7 = 7.00/h, savings 3.00/h -> 3 x 730 = 2,190.00 a month.
    expect(byId[m5.id]).toMatchObject({ family: "m5", hourly_commitment: "7.00", monthly_savings: "2190.00", expected_coverage_percent: "100.00" });
    // c5: flat 5.00/h -> 3.50/h, savings 1.50 x 730 = 1,095.00; all upfront for 12 months: 3.50 x 12 x 730 = 30,660.00.
    expect(byId[c5.id]).toMatchObject({ family: "c5", hourly_commitment: "3.50", monthly_savings: "1095.00", upfront_cost: "30660.00" });
    // No family: 10 + 5 + 3 = 18.00/h -> 12.60/h, savings 5.40 x 730 = 3,942.00.
    expect(byId[any.id]).toMatchObject({ family: null, hourly_commitment: "12.60", monthly_savings: "3942.00" });
  });
});
