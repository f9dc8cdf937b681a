// Budget statuses of a whole tenant in one statement over the roll-up: periods of every length,
// metrics, filters and currencies mixed, forecast windows crossing a period start, on a ledger whose
// sums are computed by hand below.
import { budgetStatus, budgetStatuses, type BudgetSpec } from "../src/budgets/status";
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

test("on 2026-10-03 12:00: sums of every period and forecast window, computed by hand", async () => {
  const now = new Date("2026-10-03T12:00:00.000Z");
  const statuses = await budgetStatuses(ctx.prisma, budgets(), now);
  expect(statuses.map((s) => [s.period_start.slice(0, 10), s.period_end.slice(0, 10), s.spent, s.forecast])).toEqual([
    // Oct: 10 + 25 + 30 = 65; window Oct 1-2 (35 / 2 = 17.5 a day) x 28.5 days left = 498.75.
    ["2026-10-01", "2026-11-01", "65.00", "563.75"],
    // EC2 list cost: 10 + 20 + 60 = 90; window 30 / 2 = 15 a day x 89.5 days = 1342.5.
    ["2026-10-01", "2027-01-01", "90.00", "1432.50"],
    // 1000 + 65 = 1065; window Sep 26 - Oct 2 = 1035 / 7 a day x 89.5 = 13233.2142857...
    ["2026-01-01", "2027-01-01", "1065.00", "14298.21"],
    // EUR only: 7 today, nothing in the window.
    ["2026-10-01", "2026-11-01", "7.00", "7.00"],
    // S3 (USD): 5; window 5 / 7 a day x 89.5 = 63.928571...
    ["2026-01-01", "2027-01-01", "5.00", "68.93"],
    ["2026-10-01", "2026-11-01", "0.00", "0.00"],
  ]);
  // Each is what the budget alone gives.
  for (const [i, budget] of budgets().entries()) expect(await budgetStatus(ctx.prisma, budget, now)).toEqual(statuses[i]);
});

test("on the first day of a quarter the month and quarter have no complete day: the forecast is the period's spend", async () => {
  // The period's spend is every line of the period the ledger holds (here also Oct 2 and 3).
  const now = new Date("2026-10-01T06:00:00.000Z");
  const statuses = await budgetStatuses(ctx.prisma, budgets(), now);
  expect(statuses.map((s) => [s.spent, s.forecast])).toEqual([
    ["65.00", "65.00"],
    ["90.00", "90.00"],
    // 1065; window Sep 24-30 = 1000 / 7 a day x 91.75 days = 13107.142857...
    ["1065.00", "14172.14"],
    ["7.00", "7.00"],
    // No S3 in the window.
    ["5.00", "5.00"],
    ["0.00", "0.00"],
  ]);
});

test("on 2026-09-30 12:00 October's lines are in no month or quarter, and the window (Sep 23-29) is empty", async () => {
  const statuses = await budgetStatuses(ctx.prisma, budgets(), new Date("2026-09-30T12:00:00.000Z"));
  expect(statuses.map((s) => [s.period_start.slice(0, 10), s.spent, s.forecast])).toEqual([
    ["2026-09-01", "1000.00", "1000.00"],
    ["2026-07-01", "1000.00", "1000.00"],
    ["2026-01-01", "1065.00", "1065.00"],
    ["2026-09-01", "0.00", "0.00"],
    ["2026-01-01", "5.00", "5.00"],
    ["2026-09-01", "0.00", "0.00"],
  ]);
});

test("sessions plan without JIT: compiling the statuses' filtered sums takes longer than running them", async () => {
  const [row] = await ctx.prisma.$queryRawUnsafe<{ jit: string }[]>("SELECT current_setting('jit') AS jit");
  expect(row.jit).toBe("off");
});
