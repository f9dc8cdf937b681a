import { z } from "zod";
import { Currency, ServiceId, TimestampOutput } from "../../common.js";
import { isDimensionParameter } from "../spend/schemas.js";

const DECIMAL = /^\d{1,18}(\.\d{1,10})?$/;
/** A positive amount as a decimal string (a JSON number is accepted and kept exactly as written). */
const Amount = z
  .union([z.string().regex(DECIMAL, "must be a decimal number such as 1500 or 1500.25 (at most 10 decimal places)"), z.number().positive().finite()])
  .transform((value) => (typeof value === "number" ? String(value) : value))
  .refine((value) => DECIMAL.test(value) && Number(value) > 0, "must be a positive decimal with at most 10 decimal places")
  .meta({ description: "A positive amount: a decimal string (exact) or a JSON number." });
const DecimalString = z.string().meta({ description: "An exact decimal as a string." });

export const BudgetPeriod = z.enum(["monthly", "quarterly", "annual"]).meta({ id: "BudgetPeriod", description: "Calendar periods in UTC." });
export const BudgetMetric = z
  .enum(["billed_cost", "effective_cost", "list_cost", "contracted_cost"])
  .meta({ id: "BudgetMetric", description: "Which cost a budget counts (default `billed_cost`)." });

export const BudgetThreshold = z
  .object({
    percent: z.number().positive().max(1000).multipleOf(0.01),
    kind: z.enum(["actual", "forecast"]),
  })
  .meta({ id: "BudgetThreshold", description: "Crossed when spent (`actual`) or the forecast (`forecast`) reaches `percent` of the amount." });
export type BudgetThreshold = z.infer<typeof BudgetThreshold>;

/** Dimensions of the daily roll-up a budget can be narrowed to (a line matches one of the values of each). */
export const BUDGET_FILTER_DIMENSIONS = [
  "provider",
  "service_name",
  "service_category",
  "region",
  "charge_category",
  "charge_frequency",
  "source",
  "sub_account_id",
  "model",
] as const;
const FilterValues = z.array(z.string().min(1).max(256)).min(1).max(100);
export const BudgetFilters = z
  .object(
    Object.fromEntries(BUDGET_FILTER_DIMENSIONS.map((name) => [name, FilterValues.optional()])) as Record<
      (typeof BUDGET_FILTER_DIMENSIONS)[number],
      z.ZodOptional<typeof FilterValues>
    >,
  )
  // One `dimension:<key>` of the organization besides them (its split view; __unallocated__ for the unallocated cost).
  .catchall(FilterValues)
  .superRefine((filters, ctx) => {
    const extra = Object.keys(filters).filter((name) => !(BUDGET_FILTER_DIMENSIONS as readonly string[]).includes(name));
    for (const name of extra)
      if (!isDimensionParameter(name))
        ctx.addIssue({ code: "custom", path: [name], message: `not a filter: one of ${BUDGET_FILTER_DIMENSIONS.join(", ")} or dimension:<key>` });
    if (extra.filter(isDimensionParameter).length > 1)
      ctx.addIssue({ code: "custom", path: [extra.filter(isDimensionParameter)[1]], message: "one dimension per budget" });
  })
  .meta({
    id: "BudgetFilters",
    description:
      "Spend the budget counts: for each dimension given, lines whose value is one of the listed; `dimension:<key>` (one) counts that dimension's values after its splits.",
  });
export type BudgetFilters = z.infer<typeof BudgetFilters>;

const Thresholds = z
  .array(BudgetThreshold)
  .max(10)
  .refine((list) => new Set(list.map((t) => `${t.kind}:${t.percent}`)).size === list.length, "thresholds must not repeat");
const Name = z.string().trim().min(1).max(200);

export const CreateBudgetRequest = z
  .object({
    name: Name,
    period: BudgetPeriod,
    amount: Amount,
    currency: Currency,
    metric: BudgetMetric.default("billed_cost"),
    filters: BudgetFilters.default({}),
    thresholds: Thresholds,
  })
  .meta({ id: "CreateBudgetRequest", description: "A budget of the tenant: its period, amount, currency, optional metric and filters, and its thresholds." });
export type CreateBudgetRequest = z.output<typeof CreateBudgetRequest>;

export const UpdateBudgetRequest = z
  .object({
    name: Name.optional(),
    period: BudgetPeriod.optional(),
    amount: Amount.optional(),
    currency: Currency.optional(),
    metric: BudgetMetric.optional(),
    filters: BudgetFilters.optional(),
    thresholds: Thresholds.optional(),
  })
  .meta({ id: "UpdateBudgetRequest", description: "Fields to change; absent fields stay as they are." });
export type UpdateBudgetRequest = z.output<typeof UpdateBudgetRequest>;

export const BudgetStatus = z
  .object({
    period_start: TimestampOutput,
    period_end: TimestampOutput,
    spent: DecimalString,
    forecast: DecimalString.nullable().meta({ description: "Null with fewer than 3 days of history (forecast thresholds are then not evaluated)." }),
    percent_used: DecimalString,
    state: z.enum(["ok", "warning", "exceeded"]),
    crossed: z.array(BudgetThreshold),
  })
  .meta({ id: "BudgetStatus", description: "Computed from the ledger when read: the current period's spend, forecast and thresholds crossed." });

export const Budget = z
  .object({
    id: ServiceId,
    tenant_id: ServiceId,
    name: z.string(),
    period: BudgetPeriod,
    amount: DecimalString,
    currency: Currency,
    metric: BudgetMetric,
    filters: BudgetFilters,
    thresholds: z.array(BudgetThreshold),
    created_at: TimestampOutput,
    updated_at: TimestampOutput,
    status: BudgetStatus,
  })
  .meta({ id: "Budget", description: "A budget with its status in the current period." });
export type Budget = z.infer<typeof Budget>;

export const BudgetList = z.object({ items: z.array(Budget) }).meta({ id: "BudgetList", description: "Every budget of the tenant, oldest first." });

export const BudgetPathParams = z.object({ id: ServiceId }).meta({ id: "BudgetPathParams", description: "Path parameters of /tenant/budgets/{id}." });
