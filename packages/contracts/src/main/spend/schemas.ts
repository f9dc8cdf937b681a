import { z } from "zod";
import { Currency, KeyText, PaginationQuery, Timestamp, TimestampOutput, queryArray, queryBoolean } from "../../common.js";
import { UsageLine } from "../../pricing/references.js";

/** An exact amount: at most 10 decimal places, no exponent (sums of small charges exceed what a JSON number holds). */
export const DecimalString = z
  .string()
  .regex(/^-?\d+(\.\d{1,10})?$/)
  .meta({ id: "DecimalString", description: "Exact decimal amount as a string: at most 10 decimal places, no exponent, e.g. `0.001`." });

export const SpendSource = z.enum(["usage", "focus_import"]).meta({ id: "SpendSource", description: "Where a spend line comes from." });
export type SpendSource = z.infer<typeof SpendSource>;

export const SpendMetric = z
  .enum(["billed_cost", "effective_cost", "list_cost", "contracted_cost"])
  .meta({ id: "SpendMetric", description: "Which cost is summed." });
export type SpendMetric = z.infer<typeof SpendMetric>;

export const SpendGranularity = z
  .enum(["day", "month", "none"])
  .meta({ id: "SpendGranularity", description: "Length of each period (`none`: the whole range)." });
export type SpendGranularity = z.infer<typeof SpendGranularity>;

/** Dimensions a spend query groups and filters by (`tenant` in the organization view only), besides `tag:<key>`. */
export const SPEND_DIMENSIONS = [
  "tenant",
  "provider",
  "service_name",
  "service_category",
  "region",
  "resource_id",
  "charge_category",
  "source",
  "sub_account_id",
  "model",
  "charge_frequency",
  "pricing_category",
  "commitment_discount_id",
  "billing_period",
  "invoice_id",
] as const;
export type SpendDimension = (typeof SPEND_DIMENSIONS)[number];
const TENANT_DIMENSIONS = SPEND_DIMENSIONS.filter((dimension) => dimension !== "tenant");

/** `tag:<key>`: a tag key of 1-256 printable characters. */
const TAG_PARAMETER = /^tag:\P{Cc}{1,256}$/u;
export const isTagParameter = (name: string) => TAG_PARAMETER.test(name);
/** `dimension:<key>`: one of the organization's dimensions (its key's syntax). */
const DIMENSION_PARAMETER = /^dimension:[a-z][a-z0-9_]{0,39}$/;
export const isDimensionParameter = (name: string) => DIMENSION_PARAMETER.test(name);
/** The filter value that selects a dimension's unallocated cost. */
export const UNALLOCATED_FILTER = "__unallocated__";

const MAX_RANGE_DAYS = 400;
const DAY_MS = 86_400_000;
const FilterValue = KeyText;
const Filter = queryArray(FilterValue).optional();

export const DateOrTimestamp = z
  .union([z.iso.date().transform((day) => `${day}T00:00:00.000Z`), Timestamp])
  .meta({ override: { type: "string", description: "RFC 3339 timestamp, or YYYY-MM-DD (UTC midnight)." } });

/** The first instant of the current UTC month. */
export const startOfMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

export interface SpendRange {
  start: string;
  end: string;
}

/** start/end resolved (default: the current calendar month to now) and checked: start < end, at most 400 days. */
export function resolveRange<T extends { start?: string; end?: string }>(query: T, ctx: z.RefinementCtx): Omit<T, "start" | "end"> & SpendRange {
  const now = new Date();
  const end = query.end ?? now.toISOString();
  const start = query.start ?? startOfMonth(query.end ? new Date(Date.parse(end) - 1) : now);
  const span = Date.parse(end) - Date.parse(start);
  if (span <= 0) ctx.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
  else if (span > MAX_RANGE_DAYS * DAY_MS) ctx.addIssue({ code: "custom", path: ["end"], message: `the range may span at most ${MAX_RANGE_DAYS} days` });
  return { ...query, start, end };
}

/** `tag:<key>` parameters (array forms as for the other filters), by key. */
function tagFilters(query: Record<string, unknown>, ctx: z.RefinementCtx): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.startsWith("tag:")) continue;
    if (!isTagParameter(name)) {
      ctx.addIssue({ code: "custom", path: [name], message: "a tag filter is tag:<key> with a key of 1-256 printable characters" });
      continue;
    }
    const parsed = queryArray(FilterValue).safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: "custom", path: [name], message: "tag values are at most 256 characters each" });
    else if (parsed.data.length) tags[name.slice(4)] = parsed.data;
  }
  return tags;
}

/** `dimension:<key>` parameters (array forms as for the other filters), by key; where `allowed` is false, each one is an issue naming it. */
function dimensionFilters(query: Record<string, unknown>, ctx: z.RefinementCtx, allowed: boolean): Record<string, string[]> {
  const dimensions: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.startsWith("dimension:")) continue;
    if (!allowed) {
      ctx.addIssue({ code: "custom", path: [name], message: "dimension filters apply to spend queries, not here" });
      continue;
    }
    if (!DIMENSION_PARAMETER.test(name)) {
      ctx.addIssue({ code: "custom", path: [name], message: "a dimension filter is dimension:<key> with a key of [a-z][a-z0-9_]{0,39}" });
      continue;
    }
    const parsed = queryArray(FilterValue).safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: "custom", path: [name], message: "dimension values are at most 256 characters each" });
    else if (parsed.data.length) dimensions[name.slice("dimension:".length)] = parsed.data;
  }
  return dimensions;
}

function filterShape(orgView: boolean) {
  const dimensions = orgView ? SPEND_DIMENSIONS : TENANT_DIMENSIONS;
  return Object.fromEntries(dimensions.map((dimension) => [dimension, Filter])) as Record<SpendDimension, typeof Filter>;
}

const FILTER_DESCRIPTION =
  "Filters: each dimension name as an array parameter (`a,b`, repeated, or both) and `tag:<key>` for tag values; a line matches when its value is one of the listed.";

function spendFilterQuery<S extends z.ZodRawShape>(orgView: boolean, shape: S, id: string, description: string, withDimensions = false) {
  return z
    .looseObject({ start: DateOrTimestamp.optional(), end: DateOrTimestamp.optional(), ...filterShape(orgView), ...shape })
    .transform((query, ctx) => {
      if ("per_scale" in shape && (query as Record<string, unknown>).per_scale !== undefined && (query as Record<string, unknown>).per === undefined)
        ctx.addIssue({ code: "custom", path: ["per_scale"], message: "per_scale scales a unit cost: it needs per=<metric>" });
      const tags = tagFilters(query, ctx);
      const dimension_filters = dimensionFilters(query, ctx, withDimensions);
      const grouped = Array.isArray(query.group_by) ? (query.group_by as string[]) : [];
      const keys = new Set([...grouped.filter((name) => name.startsWith("dimension:")).map((name) => name.slice(10)), ...Object.keys(dimension_filters)]);
      if (keys.size > 1)
        ctx.addIssue({ code: "custom", path: ["group_by"], message: `one dimension per query (this one names ${[...keys].sort().join(", ")})` });
      const filters: Partial<Record<SpendDimension, string[]>> = {};
      for (const dimension of orgView ? SPEND_DIMENSIONS : TENANT_DIMENSIONS) {
        const values = (query as Record<string, unknown>)[dimension] as string[] | undefined;
        if (values?.length) filters[dimension] = values;
      }
      const { start, end } = resolveRange(query as { start?: string; end?: string }, ctx);
      const rest = Object.fromEntries(Object.keys(shape).map((key) => [key, (query as Record<string, unknown>)[key]])) as { [K in keyof S]: z.output<S[K]> };
      return { ...rest, start, end, filters, tags, dimension_filters };
    })
    .meta({ id, description: `${description} ${FILTER_DESCRIPTION}` });
}

function groupBy(orgView: boolean) {
  const dimension = z.union([
    z.enum(orgView ? SPEND_DIMENSIONS : TENANT_DIMENSIONS),
    z.string().regex(TAG_PARAMETER, "must be a dimension, tag:<key> or dimension:<key>"),
    z.string().regex(DIMENSION_PARAMETER, "must be a dimension, tag:<key> or dimension:<key>"),
  ]);
  return queryArray(dimension)
    .refine((values) => new Set(values).size === values.length, "names a dimension twice")
    .refine((values) => values.length <= 2, "at most two dimensions")
    .optional();
}

/** `per`: a business metric of the organization (its name's syntax). */
const PerMetric = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, "must be a business metric's name: a lowercase letter then up to 39 lowercase letters, digits or underscores")
  .meta({ description: "A business metric of the organization: each row and total adds `metric_amount` and `unit_cost`." });
export const PER_SCALES = [1, 100, 1000, 1_000_000] as const;
export type PerScale = (typeof PER_SCALES)[number];
const PerScaleParameter = z
  .enum(["1", "100", "1000", "1000000"])
  .transform((scale) => Number(scale) as PerScale)
  .meta({
    override: { type: "integer", enum: [...PER_SCALES], description: "With `per`: the unit cost is per this many units of the metric (default 1)." },
  });

export const SpendAllocation = z
  .enum(["split", "direct"])
  .meta({ id: "SpendAllocation", description: "With a dimension: `split` (default) applies its split rules, `direct` shows each value's own lines only." });
export type SpendAllocation = z.infer<typeof SpendAllocation>;

function spendQuery(orgView: boolean, id: string) {
  return spendFilterQuery(
    orgView,
    {
      granularity: SpendGranularity.default("day"),
      metric: SpendMetric.default("billed_cost"),
      group_by: groupBy(orgView),
      allocation: SpendAllocation.default("split"),
      per: PerMetric.optional(),
      per_scale: PerScaleParameter.optional(),
    },
    id,
    `Range \`start\` (inclusive) to \`end\` (exclusive), default the current calendar month to now, at most ${MAX_RANGE_DAYS} days; \`granularity\`, \`metric\`, \`group_by\` (at most two of ${(orgView ? SPEND_DIMENSIONS : TENANT_DIMENSIONS).join(", ")}, tag:<key> and dimension:<key>); \`dimension:<key>\` filters (${UNALLOCATED_FILTER} for the unallocated cost) and \`allocation\`. One dimension per query, grouped, filtered or both. \`per=<metric>\` and \`per_scale\` (1, 100, 1000 or 1000000): unit costs.`,
    true,
  );
}

export const TenantSpendQuery = spendQuery(false, "TenantSpendQuery");
export type TenantSpendQuery = z.output<typeof TenantSpendQuery>;
export const OrganizationSpendQuery = spendQuery(true, "OrganizationSpendQuery");
export type OrganizationSpendQuery = z.output<typeof OrganizationSpendQuery>;
export type SpendQuery = OrganizationSpendQuery;

export const ForecastPeriod = z
  .enum(["monthly", "quarterly", "annual"])
  .meta({ id: "ForecastPeriod", description: "The current calendar month, quarter or year (UTC)." });

export const SpendForecastQuery = z
  .looseObject({
    period: ForecastPeriod.default("monthly"),
    metric: SpendMetric.default("billed_cost"),
    currency: Currency.default("USD"),
    ...filterShape(false),
  })
  .transform((query, ctx) => {
    const tags = tagFilters(query, ctx);
    const dimension_filters = dimensionFilters(query, ctx, true);
    if (Object.keys(dimension_filters).length > 1)
      ctx.addIssue({ code: "custom", path: [`dimension:${Object.keys(dimension_filters).sort()[1]}`], message: "one dimension per forecast" });
    const filters: Partial<Record<SpendDimension, string[]>> = {};
    for (const dimension of TENANT_DIMENSIONS) {
      const values = (query as Record<string, unknown>)[dimension] as string[] | undefined;
      if (values?.length) filters[dimension] = values;
    }
    return { period: query.period, metric: query.metric, currency: query.currency, filters, tags, dimension_filters };
  })
  .meta({
    id: "SpendForecastQuery",
    description: `The current \`period\` (default monthly), \`metric\` and \`currency\` (default USD) to forecast. ${FILTER_DESCRIPTION}`,
  });
export type SpendForecastQuery = z.output<typeof SpendForecastQuery>;

const NullableAmount = DecimalString.nullable();
export const SpendForecast = z
  .object({
    period_start: TimestampOutput,
    period_end: TimestampOutput,
    rows: z.array(
      z.object({
        day: z.iso.date(),
        actual: NullableAmount.meta({ description: "The day's cost, for days up to the last day with data." }),
        expected: NullableAmount.meta({
          description:
            "The day's expected cost (usage run rate + recurring charges due), for the days left; today, when it has data, what its run rate expects beyond the usage it already spent (at least 0).",
        }),
        expected_low: NullableAmount.meta({ description: "`expected` with the 10th percentile of the day's reference set in place of the run rate." }),
        expected_high: NullableAmount.meta({ description: "`expected` with the 90th percentile of the day's reference set in place of the run rate." }),
      }),
    ),
    data_through: z.iso.date().nullable().meta({
      description: "The last day with data (today at the latest; null without data): the days after it are expected at the run rate, not counted as zeros.",
    }),
    spent: DecimalString,
    recurring_remaining: DecimalString,
    usage_remaining: DecimalString,
    forecast: NullableAmount,
    forecast_low: NullableAmount.meta({
      description: "The low end of the 80 % interval: spent + recurring_remaining + the days left at their 10th percentiles.",
    }),
    forecast_high: NullableAmount.meta({
      description: "The high end of the 80 % interval: spent + recurring_remaining + the days left at their 90th percentiles.",
    }),
    currency: Currency,
    basis: z.enum(["weekday_median", "recent_mean", "none"]),
  })
  .meta({
    id: "SpendForecast",
    description:
      "forecast = spent + recurring_remaining + usage_remaining; null (basis `none`) with fewer than 3 days of history. Recurring and one-time charges count when they start and are never extrapolated. The run rate is read from complete days with data only (before today and up to `data_through`).",
  });
export type SpendForecast = z.infer<typeof SpendForecast>;

export const SpendLinesQuery = spendFilterQuery(
  false,
  PaginationQuery.shape,
  "SpendLinesQuery",
  "Lines of the range ordered by charge_period_start, then id (paginated).",
);
export type SpendLinesQuery = z.output<typeof SpendLinesQuery>;

/** At most this many `x_Dimension_<key>` columns in one export (an organization holds at most 50 dimensions). */
export const MAX_EXPORT_DIMENSIONS = 50;
const EXPORT_SHAPE = {
  include_unpriced: queryBoolean.default(false).meta({
    description: "Also write unpriced usage lines, with zero costs, `x_Priced` false and `x_UnpricedReason` (default: left out, counted in X-Unpriced-Lines).",
  }),
  dimensions: queryArray(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, "must be a dimension key"))
    .refine((keys) => new Set(keys).size === keys.length, "names a dimension twice")
    .refine((keys) => keys.length <= MAX_EXPORT_DIMENSIONS, `at most ${MAX_EXPORT_DIMENSIONS} dimensions`)
    .optional()
    .meta({ description: "Dimension keys (`a,b`): an `x_Dimension_<key>` column each, the line's value (empty: unallocated)." }),
  allocation: SpendAllocation.optional().meta({
    description:
      "`split` (with exactly one of `dimensions`): a line of a split source is written once per piece, its costs shared, with FOCUS 1.3's `AllocatedMethodId` (the split's id) and `AllocatedMethodDetails` (its ratio); default `direct`, each line once.",
  }),
};
const EXPORT_DESCRIPTION = "Lines of the range as a FOCUS 1.2 CSV file; `X-Unpriced-Lines` counts the range's unpriced usage lines.";
export const TenantSpendExportQuery = spendFilterQuery(false, EXPORT_SHAPE, "TenantSpendExportQuery", EXPORT_DESCRIPTION);
export type TenantSpendExportQuery = z.output<typeof TenantSpendExportQuery>;
export const OrganizationSpendExportQuery = spendFilterQuery(true, EXPORT_SHAPE, "OrganizationSpendExportQuery", EXPORT_DESCRIPTION);
export type OrganizationSpendExportQuery = z.output<typeof OrganizationSpendExportQuery>;

/** A FOCUS 1.2 CSV file. */
export const FocusCsvFile = z.string().meta({
  id: "FocusCsvFile",
  description:
    "FOCUS 1.2 CSV: every column the specification requires, the conditional ones the ledger keeps, plus x_TenantId, x_Source, x_PricingId, x_Priced and x_UnpricedReason. Text cells that a spreadsheet would run as a formula start with `'`.",
});

export const CurrencyAmount = z.object({ currency: Currency, cost: DecimalString }).meta({ id: "CurrencyAmount", description: "A sum in one currency." });
export type CurrencyAmount = z.infer<typeof CurrencyAmount>;

export const SpendRow = z
  .object({
    period_start: TimestampOutput,
    period_end: TimestampOutput,
    group: z.record(z.string(), z.string().nullable()),
    currency: Currency,
    cost: DecimalString,
    direct_cost: DecimalString.optional().meta({
      description: "With a dimension grouped: the cost of the value's own lines (cost = direct_cost - shared_out + shared_in).",
    }),
    shared_in: DecimalString.optional().meta({ description: "With a dimension grouped: what split rules moved to this value." }),
    shared_out: DecimalString.optional().meta({ description: "With a dimension grouped: what split rules moved away from this value." }),
    metric_amount: DecimalString.nullable().optional().meta({
      description:
        "With `per`: the metric's amount the row divides by (its label's, grouped by the labelling dimension, else every label's) over the days of the row's period; null when none is stored.",
    }),
    unit_cost: DecimalString.nullable()
      .optional()
      .meta({ description: "With `per`: cost / (metric_amount / per_scale), rounded half up to 10 decimal places; null when metric_amount is 0 or null." }),
  })
  .meta({
    id: "SpendRow",
    description: "Spend of one period, group and currency; `group` holds the value of each group_by dimension (null where a line has none).",
  });
export type SpendRow = z.infer<typeof SpendRow>;

export const SpendTotal = CurrencyAmount.extend({
  metric_amount: DecimalString.nullable().optional().meta({
    description: "With `per`: the metric's amount over the range (of the labels filtered on, if the labelling dimension is); null when none is stored.",
  }),
  unit_cost: DecimalString.nullable().optional().meta({ description: "With `per`: cost / (metric_amount / per_scale); null when metric_amount is 0 or null." }),
}).meta({ id: "SpendTotal", description: "The spend of the range in one currency." });
export type SpendTotal = z.infer<typeof SpendTotal>;

export const UnpricedSummary = z
  .object({ lines: z.number().int().nonnegative(), by_reason: z.record(z.string(), z.number().int().nonnegative()) })
  .meta({ id: "UnpricedSummary", description: "Usage lines of the range stored without a price, in total and by reason (they count in no cost)." });

export const SpendReport = z
  .object({
    start: TimestampOutput,
    end: TimestampOutput,
    granularity: SpendGranularity,
    metric: SpendMetric,
    group_by: z.array(z.string()),
    rows: z.array(SpendRow),
    totals: z.array(SpendTotal),
    unpriced: UnpricedSummary,
    per: z
      .object({
        metric: z.string(),
        unit: z.string(),
        scale: z.number().int(),
        labelled_by: z.string().nullable().meta({
          description:
            "The dimension (`dimension:<key>`) whose values label the amounts each row divides by; null when rows divide by the metric's total (every label).",
        }),
      })
      .optional()
      .meta({ description: "With `per`: the business metric the unit costs divide by." }),
  })
  .meta({ id: "SpendReport", description: "Rows ordered by period_start, then cost descending, then the group values in byte order." });
export type SpendReport = z.infer<typeof SpendReport>;

/** Bounds on a ledger line's tags however they arrive (a FOCUS file's Tags, a usage line's labels and tags): each key is a roll-up row per day. */
export const LEDGER_TAGS_MAX_KEYS = 64;
export const LEDGER_TAG_KEY_MAX_LENGTH = 128;
export const LEDGER_TAG_VALUE_MAX_LENGTH = 256;

/** A usage line's labels and tags, which the ledger keeps together as the line's tags: each within the bounds, and together too. */
function checkLedgerTags(line: { labels?: Record<string, string>; tags?: Record<string, string> }, ctx: z.RefinementCtx): void {
  let within = true;
  for (const field of ["labels", "tags"] as const) {
    const record = line[field];
    if (!record) continue;
    const keys = Object.keys(record);
    if (keys.length > LEDGER_TAGS_MAX_KEYS) {
      ctx.addIssue({ code: "custom", path: [field], message: `at most ${LEDGER_TAGS_MAX_KEYS} keys (has ${keys.length})` });
      within = false;
      continue;
    }
    for (const key of keys) {
      if (key.length > LEDGER_TAG_KEY_MAX_LENGTH) {
        ctx.addIssue({ code: "custom", path: [field], message: `a key is longer than ${LEDGER_TAG_KEY_MAX_LENGTH} characters ("${key.slice(0, 40)}…")` });
        within = false;
        break;
      }
      if (record[key].length > LEDGER_TAG_VALUE_MAX_LENGTH) {
        ctx.addIssue({ code: "custom", path: [field, key], message: `at most ${LEDGER_TAG_VALUE_MAX_LENGTH} characters` });
        within = false;
        break;
      }
    }
  }
  if (!within || !line.labels || !line.tags) return;
  const together = new Set([...Object.keys(line.labels), ...Object.keys(line.tags)]).size;
  if (together > LEDGER_TAGS_MAX_KEYS)
    ctx.addIssue({ code: "custom", path: [], message: `labels and tags together have ${together} keys; at most ${LEDGER_TAGS_MAX_KEYS}` });
}

export const SpendUsageLine = UsageLine.extend({
  event_id: z.string().min(1).max(256).optional().meta({ description: "The customer's id of the event: a tenant's event is stored once." }),
})
  .superRefine(checkLedgerTags)
  .meta({
    id: "SpendUsageLine",
    description:
      `A usage line of the pricing API's shape, plus the optional \`event_id\`. Its \`labels\` and \`tags\` are kept together as the line's tags: ` +
      `at most ${LEDGER_TAGS_MAX_KEYS} keys of at most ${LEDGER_TAG_KEY_MAX_LENGTH} characters, values of at most ${LEDGER_TAG_VALUE_MAX_LENGTH}.`,
  });

export const IngestUsageRequest = z
  .object({ usage: z.array(SpendUsageLine).min(1).max(10000) })
  .meta({ id: "IngestUsageRequest", description: "1-10000 usage lines, priced with the organization's prices and stored all or nothing." });
export type IngestUsageRequest = z.output<typeof IngestUsageRequest>;

const Count = z.number().int().nonnegative();

export const IngestUsageResponse = z.object({ accepted: Count, duplicates: Count, priced: Count, unpriced: Count, totals: z.array(CurrencyAmount) }).meta({
  id: "IngestUsageResponse",
  description: "Lines stored (priced and unpriced), lines skipped as already sent, and the stored lines' cost per currency.",
});
export type IngestUsageResponse = z.infer<typeof IngestUsageResponse>;

export const RepriceRequest = z
  .object({ start: DateOrTimestamp.optional(), end: DateOrTimestamp.optional() })
  .refine(({ start, end }) => start === undefined || end === undefined || Date.parse(start) < Date.parse(end), {
    path: ["end"],
    message: "must be after start",
  })
  .meta({ id: "RepriceRequest", description: "The range of usage timestamps to reprice (default: every unpriced line of the tenant)." });
export type RepriceRequest = z.output<typeof RepriceRequest>;

export const RepriceResponse = z
  .object({ repriced: Count, still_unpriced: Count, totals: z.array(CurrencyAmount) })
  .meta({ id: "RepriceResponse", description: "Lines priced now, lines still without a price, and the cost of the lines priced now per currency." });
export type RepriceResponse = z.infer<typeof RepriceResponse>;

const Text = z.string().nullable();
const When = TimestampOutput.nullable();
/** A line's amount or quantity as stored: every decimal place delivered, up to 20, no exponent. */
const LineDecimal = z
  .string()
  .regex(/^-?\d+(\.\d{1,20})?$/)
  .meta({ id: "LineDecimalString", description: "Exact decimal as stored on a line: up to 20 decimal places (as the bill delivered it), no exponent." });

export const SpendLine = z
  .object({
    id: z.string(),
    tenant_id: Text,
    source: SpendSource,
    charge_period_start: TimestampOutput,
    charge_period_end: TimestampOutput,
    charge_category: z.string(),
    charge_class: Text,
    provider: Text,
    service_name: Text,
    service_category: Text,
    region: Text,
    resource_id: Text,
    resource_name: Text,
    sku_id: Text,
    sku_price_id: Text,
    pricing_id: Text,
    unit_prices: z.record(z.string(), DecimalString).nullable(),
    consumed_quantity: LineDecimal.nullable(),
    consumed_unit: Text,
    billed_cost: LineDecimal.nullable(),
    effective_cost: LineDecimal.nullable(),
    list_cost: LineDecimal.nullable(),
    currency: Currency.nullable(),
    tags: z.record(z.string(), z.string()),
    sub_account_id: Text,
    billing_account_id: Text,
    billing_period_start: When,
    billing_period_end: When,
    import_id: Text,
    priced: z.boolean(),
    unpriced_reason: Text,
    model: Text,
    event_id: Text,
    created_at: TimestampOutput,
    charge_frequency: z.enum(["One-Time", "Recurring", "Usage-Based"]),
    pricing_category: Text,
    pricing_quantity: LineDecimal.nullable(),
    pricing_unit: Text,
    contracted_cost: LineDecimal.nullable(),
    contracted_unit_price: LineDecimal.nullable(),
    list_unit_price: LineDecimal.nullable(),
    resource_type: Text,
    commitment_discount_id: Text,
    commitment_discount_category: Text,
    commitment_discount_type: Text,
    commitment_discount_status: Text,
    commitment_discount_quantity: LineDecimal.nullable(),
    commitment_discount_unit: Text,
    invoice_issuer: Text,
    charge_description: Text,
    sku_meter: Text,
    billing_account_name: Text,
    sub_account_name: Text,
    availability_zone: Text,
    region_name: Text,
    publisher_name: Text,
    invoice_id: Text,
    commitment_discount_name: Text,
    row_id: Text.meta({ description: "The bill's own id of the row (its `Id` column), as delivered." }),
  })
  .meta({ id: "SpendLine", description: "A ledger line with its provenance (source, import_id, pricing_id and unit_prices, event_id, created_at)." });
export type SpendLine = z.infer<typeof SpendLine>;

export const SpendLinesPage = z
  .object({ items: z.array(SpendLine), next_cursor: z.string().nullable() })
  .meta({ id: "SpendLinesPage", description: "A page of spend lines; `next_cursor` is null on the last page." });
export type SpendLinesPage = z.infer<typeof SpendLinesPage>;
