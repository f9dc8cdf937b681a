// Budget statuses of a whole tenant from one statement over the roll-up: periods of every length,
// metrics, filters and currencies mixed, the forecast's history reaching across a period start, on
// a ledger whose sums are computed by hand below.
import { type BudgetSpec, budgetStatus, budgetStatusReadsOver, budgetStatuses } from "../src/budgets/status";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let base: Pick<BudgetSpec, "organizationId" | "tenantId" | "amount" | "thresholds">;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await signUp(ctx, { company: "Budget Status Co" });
  base = { organizationId: owner.organization.id, tenantId: owner.tenant.id, amount: "1000", thresholds: [{ percent: 100, kind: "forecast" }] };
  const t = owner.tenant.id;
  await seedSpend(ctx, owner.organization.id, [
    dayLine(t, "2025-12-31", "9999"), // last year: never counted
    dayLine(t, "2026-09-30", "1000"), // last quarter: only in the annual budgets
    dayLine(t, "2026-10-01", "10"),
    dayLine(t, "2026-10-02", "20"),
    dayLine(t, "2026-10-02", "5", { serviceName: "Amazon S3" }),
    dayLine(t, "2026-10-03", "30", { listCost: "60" }),
    dayLine(t, "2026-10-03", "7", { serviceName: "Amazon S3", currency: "EUR" }),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

const budgets = (): BudgetSpec[] => [
  { ...base, period: "monthly", currency: "USD", metric: "billed_cost", filters: {} },
  { ...base, period: "quarterly", currency: "USD", metric: "list_cost", filters: { service_name: ["Amazon EC2"] } },
  { ...base, period: "annual", currency: "USD", metric: "billed_cost", filters: {} },
  { ...base, period: "monthly", currency: "EUR", metric: "billed_cost", filters: { provider: ["aws"] } },
  { ...base, period: "annual", currency: "USD", metric: "effective_cost", filters: { service_name: ["Amazon S3"], provider: ["aws"] } },
  { ...base, period: "monthly", currency: "USD", metric: "billed_cost", filters: { service_name: ["AWS Lambda"] } },
];

test("on 2026-10-03 12:00: spend of every period and the forecast's run rate, computed by hand", async () => {
  const now = new Date("2026-10-03T12:00:00.000Z");
  const statuses = await budgetStatuses(budgetStatusReadsOver(ctx.prisma), budgets(), now);
  expect(statuses.map((s) => [s.period_start.slice(0, 10), s.period_end.slice(0, 10), s.spent, s.forecast])).toEqual([
    // Oct: 10 + 25 + 30 = 65. Usage history since Sep 30 (3 complete days): the mean of Sep 30 - Oct 2
    // = (1000 + 10 + 25) / 3 = 345 a day, for the days after the last day with data (Oct 4-31: 28) = 9660,
    // and for today (Oct 3, partial) 345 less the 30 it already spent = 315: 65 + 315 + 9660 = 10040.
    ["2026-10-01", "2026-11-01", "65.00", "10040.00"],
    // EC2 list cost: 10 + 20 + 60 = 90; (1000 + 10 + 20) / 3 = 343.33... a day x 89 days (Oct 4 - Dec 31)
    // = 30556.67, and today 343.33... - 60 = 283.33...: 90 + 90 x 1030 / 3 - 60 = 30930.
    ["2026-10-01", "2027-01-01", "90.00", "30930.00"],
    // 1000 + 65 = 1065 (last year's line is another period); 345 a day x 89 days = 30705, today 315: 32085.
    ["2026-01-01", "2027-01-01", "1065.00", "32085.00"],
    // EUR only: 7 today, no usage in EUR before today: nothing more expected (today: max(0 - 7, 0) = 0).
    ["2026-10-01", "2026-11-01", "7.00", "7.00"],
    // S3 (USD): 5 on Oct 2, its only day of usage: 5 a day x 89 days = 445, and today (no S3 usage in USD yet) 5: 455.
    ["2026-01-01", "2027-01-01", "5.00", "455.00"],
    ["2026-10-01", "2026-11-01", "0.00", "0.00"],
  ]);
  // Each is what the budget alone gives.
  for (const [i, budget] of budgets().entries()) expect(await budgetStatus(budgetStatusReadsOver(ctx.prisma), budget, now)).toEqual(statuses[i]);
});

test("with fewer than 3 complete days of history there is no forecast; the period's spend is every line of the period", async () => {
  // Oct 1 06:00: the tenant's first day with data is Sep 30 (last year's line is outside every range read), 1 day ago.
  const statuses = await budgetStatuses(budgetStatusReadsOver(ctx.prisma), budgets(), new Date("2026-10-01T06:00:00.000Z"));
  expect(statuses.map((s) => [s.spent, s.forecast])).toEqual([
    ["65.00", null],
    ["90.00", null],
    ["1065.00", null],
    ["7.00", null],
    ["5.00", null],
    ["0.00", null],
  ]);
  // A forecast threshold is then not evaluated: 1065 is over 100 % of 1000 only as spend, and the threshold is a forecast one.
  expect(statuses[2]).toMatchObject({ state: "exceeded", crossed: [] });
});

test("on 2026-09-30 12:00 October's lines are in no month or quarter", async () => {
  const statuses = await budgetStatuses(budgetStatusReadsOver(ctx.prisma), budgets(), new Date("2026-09-30T12:00:00.000Z"));
  expect(statuses.map((s) => [s.period_start.slice(0, 10), s.spent, s.forecast])).toEqual([
    ["2026-09-01", "1000.00", null],
    ["2026-07-01", "1000.00", null],
    ["2026-01-01", "1065.00", null],
    ["2026-09-01", "0.00", null],
    ["2026-01-01", "5.00", null],
    ["2026-09-01", "0.00", null],
  ]);
});

test("sessions plan without JIT: compiling the statuses' filtered sums takes longer than running them", async () => {
  const [row] = await ctx.prisma.$queryRawUnsafe<{ jit: string }[]>("SELECT current_setting('jit') AS jit");
  expect(row.jit).toBe("off");
});
