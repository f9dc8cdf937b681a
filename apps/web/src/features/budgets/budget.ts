import type { Budget, BudgetThreshold, CreateBudgetRequest } from "@cloudcost/contracts";
import { parseDecimal } from "../../shared/decimal";

export type BudgetTone = "ok" | "forecast" | "warning" | "over";

export interface BudgetDisplay {
  tone: BudgetTone;
  /** Short state in words (never colour alone). */
  label: string;
  /** Spent and forecast as percent of the amount, for the bar (0 when the amount is not positive). */
  spentPercent: number;
  forecastPercent: number;
  /** The sentence a screen reader reads for the bar. */
  description: string;
}

const percentOf = (value: string, amount: string) => {
  const a = parseDecimal(amount);
  if (a <= 0n) return 0;
  // Hundredths of a percent, exactly, then one float division for display.
  return Number((parseDecimal(value) * 10_000n) / a) / 100;
};
const pct = (n: number) => `${Math.round(n * 10) / 10} %`;

/**
 * A budget's state as the page shows it: the API's `state` (ok / warning / exceeded), with a
 * warning told apart by what crossed it: a forecast threshold only ("forecast over") or spending.
 */
export function budgetDisplay(budget: Pick<Budget, "amount" | "status">): BudgetDisplay {
  const { status, amount } = budget;
  const spentPercent = percentOf(status.spent, amount);
  // Without a forecast (fewer than 3 days of history) the bar's forecast mark stays at the spend.
  const forecastPercent = status.forecast === null ? spentPercent : percentOf(status.forecast, amount);
  let tone: BudgetTone;
  let label: string;
  if (status.state === "exceeded") {
    tone = "over";
    label = "Over budget";
  } else if (status.state === "warning") {
    const actual = status.crossed.filter((t) => t.kind === "actual").map((t) => t.percent);
    const forecast = status.crossed.filter((t) => t.kind === "forecast").map((t) => t.percent);
    if (actual.length) {
      tone = "warning";
      label = `Spent past ${Math.max(...actual)} %`;
    } else {
      tone = "forecast";
      label = `Forecast past ${Math.max(...forecast)} %`;
    }
  } else {
    tone = "ok";
    label = "On track";
  }
  const description =
    status.forecast === null
      ? `${label}: spent ${pct(spentPercent)} of the budget, no forecast yet (fewer than 3 days of history)`
      : `${label}: spent ${pct(spentPercent)} of the budget, forecast ${pct(forecastPercent)} by the end of the period`;
  return { tone, label, spentPercent, forecastPercent, description };
}

/** Where a marker sits on a bar that shows up to `max` percent (over-budget spend still fits). */
export function barScale(display: Pick<BudgetDisplay, "spentPercent" | "forecastPercent">): number {
  return Math.max(100, Math.ceil(Math.max(display.spentPercent, display.forecastPercent) / 25) * 25);
}

/** The budget dialog's fields, as typed (strings), and the request they make. */
export interface BudgetForm {
  name: string;
  period: "monthly" | "quarterly" | "annual";
  amount: string;
  currency: string;
  metric: "billed_cost" | "effective_cost" | "list_cost" | "contracted_cost";
  thresholds: { percent: string; kind: "actual" | "forecast" }[];
  /** Dimension → values separated by commas. */
  filters: Record<string, string>;
}

export const BUDGET_FILTERS = [
  ["provider", "Providers"],
  ["service_name", "Services"],
  ["service_category", "Service categories"],
  ["region", "Regions"],
  ["charge_category", "Charge categories"],
  ["charge_frequency", "Charge frequencies (Usage-Based, Recurring, One-Time)"],
  ["source", "Sources (usage, focus_import)"],
  ["sub_account_id", "Sub-accounts"],
  ["model", "Models"],
] as const;

export const emptyBudgetForm = (): BudgetForm => ({
  name: "",
  period: "monthly",
  amount: "",
  currency: "USD",
  metric: "billed_cost",
  thresholds: [
    { percent: "80", kind: "actual" },
    { percent: "100", kind: "forecast" },
  ],
  filters: {},
});

export function budgetToForm(budget: Budget): BudgetForm {
  return {
    name: budget.name,
    period: budget.period,
    amount: budget.amount,
    currency: budget.currency,
    metric: budget.metric,
    thresholds: budget.thresholds.map((t) => ({ percent: String(t.percent), kind: t.kind })),
    filters: Object.fromEntries(Object.entries(budget.filters).map(([key, values]) => [key, (values ?? []).join(", ")])),
  };
}

/**
 * The create/update body of the form, or the first problem in words. The amount stays the string
 * typed (exact); thresholds are percents with at most two decimals; empty filter fields are left out.
 */
export function budgetBody(form: BudgetForm): { body: CreateBudgetRequest } | { error: string } {
  const name = form.name.trim();
  if (!name) return { error: "Give the budget a name." };
  const amount = form.amount.trim().replace(/,/g, "");
  if (!/^\d{1,18}(\.\d{1,10})?$/.test(amount) || parseDecimal(amount) <= 0n) return { error: "The amount must be a positive number, such as 1500 or 1500.25." };
  const currency = form.currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return { error: "The currency is a three-letter code, such as USD." };
  const thresholds: BudgetThreshold[] = [];
  for (const t of form.thresholds) {
    const text = t.percent.trim();
    if (!/^\d{1,4}(\.\d{1,2})?$/.test(text) || Number(text) <= 0 || Number(text) > 1000) {
      return { error: "Each threshold is a percent above 0 and at most 1000, with at most two decimals." };
    }
    if (thresholds.some((o) => o.kind === t.kind && o.percent === Number(text))) return { error: `The ${t.kind} threshold ${text} % is listed twice.` };
    thresholds.push({ percent: Number(text), kind: t.kind });
  }
  if (thresholds.length > 10) return { error: "A budget has at most 10 thresholds." };
  const filters: CreateBudgetRequest["filters"] = {};
  for (const [key, text] of Object.entries(form.filters) as [keyof CreateBudgetRequest["filters"], string][]) {
    const values = [
      ...new Set(
        text
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ];
    if (values.length) filters[key] = values;
  }
  return { body: { name, period: form.period, amount, currency, metric: form.metric, thresholds, filters } };
}
