import { z } from "zod";
import { Currency, queryInteger, TimestampOutput } from "../../common.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import { DateOrTimestamp, DecimalString, SpendMetric } from "../spend/schemas.js";

/** A dimension's key: also how queries name it (`dimension:<key>`). */
export const DimensionKey = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, "must be a lowercase letter then up to 39 lowercase letters, digits or underscores")
  .meta({ id: "DimensionKey", description: "`[a-z][a-z0-9_]{0,39}`, e.g. `team` or `cost_center`." });
export type DimensionKey = z.infer<typeof DimensionKey>;

/** The line fields a condition (or `value_from`) reads, besides `tag:<key>` and `dimension:<key>`. */
export const DIMENSION_LINE_FIELDS = [
  "provider",
  "service_name",
  "service_category",
  "region",
  "resource_id",
  "resource_name",
  "sub_account_id",
  "sub_account_name",
  "billing_account_id",
  "charge_category",
  "charge_frequency",
  "pricing_category",
  "sku_id",
  "tenant",
  "model",
] as const;
export type DimensionLineField = (typeof DIMENSION_LINE_FIELDS)[number];

const TAG_FIELD = /^tag:\P{Cc}{1,256}$/u;
const DIMENSION_FIELD = /^dimension:[a-z][a-z0-9_]{0,39}$/;
export const ConditionField = z
  .string()
  .refine((field) => (DIMENSION_LINE_FIELDS as readonly string[]).includes(field) || TAG_FIELD.test(field) || DIMENSION_FIELD.test(field), {
    message: `must be one of ${DIMENSION_LINE_FIELDS.join(", ")}, tag:<key> or dimension:<key>`,
  })
  .meta({
    id: "ConditionField",
    description: `One of ${DIMENSION_LINE_FIELDS.join(", ")}; \`tag:<key>\`; or \`dimension:<key>\` (another dimension's value).`,
  });

export const ConditionOp = z
  .enum(["eq", "in", "prefix", "suffix", "contains", "regex", "present", "absent"])
  .meta({ id: "ConditionOp", description: "`in` takes `values`; `present` and `absent` take nothing; the others take `value`." });
export type ConditionOp = z.infer<typeof ConditionOp>;

export const MAX_CONDITION_DEPTH = 5;
export const MAX_CONDITION_LEAVES = 2000;
export const MAX_IN_VALUES = 1000;
export const MAX_REGEX_LENGTH = 256;
const MatchText = z.string().min(1).max(1024);

/** A condition: exactly one of `all`, `any`, `not`, or a leaf (`field` and `op`). */
export interface Condition {
  all?: Condition[];
  any?: Condition[];
  not?: Condition;
  field?: string;
  op?: ConditionOp;
  value?: string;
  values?: string[];
  case?: "insensitive";
}

const FORMS = ["all", "any", "not", "field"] as const;

export const Condition: z.ZodType<Condition> = z
  .strictObject({
    get all() {
      return z.array(Condition).min(1).max(MAX_CONDITION_LEAVES).optional();
    },
    get any() {
      return z.array(Condition).min(1).max(MAX_CONDITION_LEAVES).optional();
    },
    get not() {
      return Condition.optional();
    },
    field: ConditionField.optional(),
    op: ConditionOp.optional(),
    value: MatchText.optional(),
    values: z.array(MatchText).min(1).max(MAX_IN_VALUES).optional(),
    case: z.literal("insensitive").optional(),
  })
  .superRefine((c, ctx) => {
    const forms = FORMS.filter((form) => c[form] !== undefined);
    if (forms.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: `a condition has exactly one of all, any, not or field (a leaf); this one has ${forms.length ? forms.join(", ") : "none"}`,
      });
      return;
    }
    if (forms[0] !== "field") {
      for (const key of ["op", "value", "values", "case"] as const)
        if (c[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: `only a leaf (field, op) takes ${key}` });
      return;
    }
    if (c.op === undefined) return ctx.addIssue({ code: "custom", path: ["op"], message: "a leaf needs op" });
    const takesValue = !["in", "present", "absent"].includes(c.op);
    if (takesValue && c.value === undefined) ctx.addIssue({ code: "custom", path: ["value"], message: `op ${c.op} needs value` });
    if (!takesValue && c.value !== undefined) ctx.addIssue({ code: "custom", path: ["value"], message: `op ${c.op} takes no value` });
    if (c.op === "in" && c.values === undefined) ctx.addIssue({ code: "custom", path: ["values"], message: "op in needs values" });
    if (c.op !== "in" && c.values !== undefined) ctx.addIssue({ code: "custom", path: ["values"], message: `op ${c.op} takes no values` });
    if (c.op === "regex" && c.value !== undefined && c.value.length > MAX_REGEX_LENGTH)
      ctx.addIssue({ code: "custom", path: ["value"], message: `a regex has at most ${MAX_REGEX_LENGTH} characters` });
    if (c.case !== undefined && (c.op === "present" || c.op === "absent"))
      ctx.addIssue({ code: "custom", path: ["case"], message: `op ${c.op} takes no case` });
  })
  .meta({
    id: "Condition",
    description:
      'JSON condition: `{"all": [C]}`, `{"any": [C]}`, `{"not": C}` or a leaf `{field, op, value?, values?, case?: "insensitive"}`. ' +
      `Depth at most ${MAX_CONDITION_DEPTH}, at most ${MAX_CONDITION_LEAVES} leaves per dimension; \`regex\` is RE2 syntax (matched in linear time), at most ${MAX_REGEX_LENGTH} characters.`,
  });

/** `value_from`: a line field or `tag:<key>` whose value the line takes. */
const ValueFrom = z.string().refine((field) => (DIMENSION_LINE_FIELDS as readonly string[]).includes(field) || TAG_FIELD.test(field), {
  message: `must be one of ${DIMENSION_LINE_FIELDS.join(", ")} or tag:<key>`,
});
/** How queries and filters name the lines without a value. */
export const UNALLOCATED = "__unallocated__";
export const DimensionValue = z
  .string()
  .min(1)
  .max(128)
  .refine((value) => value !== UNALLOCATED, { message: "__unallocated__ names the lines without a value; it is no value of its own" })
  .meta({ id: "DimensionValue", description: "A value of a dimension: 1-128 characters." });
export const DimensionRule = z
  .strictObject({
    value: DimensionValue.optional(),
    value_from: ValueFrom.optional(),
    match: Condition,
  })
  .superRefine((rule, ctx) => {
    if ((rule.value === undefined) === (rule.value_from === undefined))
      ctx.addIssue({ code: "custom", message: "a rule has exactly one of value (a literal) and value_from (a field or tag:<key>)" });
  })
  .meta({
    id: "DimensionRule",
    description: "First match wins: a line matching `match` gets `value`, or its own value of `value_from` (no match when it has none).",
  });
export type DimensionRule = z.output<typeof DimensionRule>;

export const SplitMethod = z
  .enum(["even", "fixed", "proportional", "metric"])
  .meta({ id: "SplitMethod", description: "How a source value's cost is shared among the targets each UTC day." });
export type SplitMethod = z.infer<typeof SplitMethod>;

export const MAX_SPLITS = 20;
export const MAX_SPLIT_TARGETS = 500;

const SplitRuleFields = {
  source: DimensionValue.nullable().meta({ description: "The value whose cost is shared; null: the unallocated cost." }),
  targets: z.union([z.array(DimensionValue).min(1).max(MAX_SPLIT_TARGETS), z.literal("*")]),
  method: SplitMethod,
  percentages: z.record(z.string().min(1).max(128), DecimalString).optional(),
  metric: DimensionKey.optional().meta({ description: "method metric: a business metric whose labeled amounts that day are the shares." }),
  charge_categories: z
    .array(z.enum(["Usage", "Purchase", "Tax", "Credit", "Adjustment"]))
    .min(1)
    .max(5)
    .optional(),
};

export const SplitRuleInput = z
  .strictObject(SplitRuleFields)
  .superRefine((split, ctx) => {
    if (split.method === "fixed" && split.percentages === undefined)
      ctx.addIssue({ code: "custom", path: ["percentages"], message: "method fixed needs percentages (summing to 100)" });
    if (split.method !== "fixed" && split.percentages !== undefined)
      ctx.addIssue({ code: "custom", path: ["percentages"], message: `method ${split.method} takes no percentages` });
    if (split.method === "metric" && split.metric === undefined) ctx.addIssue({ code: "custom", path: ["metric"], message: "method metric needs metric" });
    if (split.method !== "metric" && split.metric !== undefined)
      ctx.addIssue({ code: "custom", path: ["metric"], message: `method ${split.method} takes no metric` });
  })
  .meta({
    id: "SplitRuleInput",
    description:
      'Shares the `source` value\'s cost among `targets` (values, or "*": every value with direct cost that day other than the split sources) per UTC day.',
  });
export type SplitRuleInput = z.output<typeof SplitRuleInput>;
export const SplitRule = z.object({ id: z.string(), ...SplitRuleFields }).meta({ id: "SplitRule", description: "A split rule with its assigned id." });
export type SplitRule = z.output<typeof SplitRule>;

/** An exact decimal string (DecimalString) in units of 1e-10. */
const tenBillionths = (amount: string): bigint => {
  const [whole, fraction = ""] = amount.replace("-", "").split(".");
  const units = BigInt(whole) * 10_000_000_000n + BigInt(fraction.padEnd(10, "0"));
  return amount.startsWith("-") ? -units : units;
};

/** A value is a source at most once and never both source and target; fixed percentages are the targets' and sum to 100. */
function checkSplits(splits: SplitRuleInput[], ctx: z.RefinementCtx) {
  const sources = new Map<string | null, number>();
  splits.forEach((split, i) => {
    const seen = sources.get(split.source);
    if (seen !== undefined) ctx.addIssue({ code: "custom", path: ["splits", i, "source"], message: `splits.${seen} already shares this source` });
    else sources.set(split.source, i);
  });
  splits.forEach((split, i) => {
    if (split.targets === "*") return;
    split.targets.forEach((target, t) => {
      if (sources.has(target))
        ctx.addIssue({ code: "custom", path: ["splits", i, "targets", t], message: `${target} is a split source; a value is never both` });
    });
    if (new Set(split.targets).size !== split.targets.length)
      ctx.addIssue({ code: "custom", path: ["splits", i, "targets"], message: "targets repeat a value" });
    if (!split.percentages) return;
    const targets = new Set(split.targets);
    for (const value of Object.keys(split.percentages))
      if (!targets.has(value)) ctx.addIssue({ code: "custom", path: ["splits", i, "percentages", value], message: "not one of the targets" });
    for (const target of targets)
      if (split.percentages[target] === undefined) ctx.addIssue({ code: "custom", path: ["splits", i, "percentages"], message: `no percentage for ${target}` });
    const amounts = Object.values(split.percentages);
    // Refinements run after checks that do not abort the parse (a pattern): sum only well-formed amounts.
    if (!amounts.every((p) => DecimalString.safeParse(p).success)) return;
    if (amounts.some((p) => p.startsWith("-"))) ctx.addIssue({ code: "custom", path: ["splits", i, "percentages"], message: "percentages are not negative" });
    else if (amounts.reduce((sum, p) => sum + tenBillionths(p), 0n) !== 1_000_000_000_000n)
      ctx.addIssue({ code: "custom", path: ["splits", i, "percentages"], message: "percentages sum to exactly 100" });
  });
  splits.forEach((split, i) => {
    if (split.targets === "*" && split.method === "fixed")
      ctx.addIssue({ code: "custom", path: ["splits", i, "targets"], message: 'method fixed names its targets (not "*")' });
  });
}

/** "YYYY-MM": a month in UTC. */
export const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month, YYYY-MM")
  .meta({ id: "Month", description: "A calendar month in UTC, `YYYY-MM`." });

export const MAX_DIMENSION_RULES = 500;
export const MAX_DIMENSIONS = 50;
/** Versions of one dimension: every PUT reads them all (an older version still applies to its months). */
export const MAX_DIMENSION_VERSIONS = 100;
export const MAX_EFFECTIVE_MONTHS_BACK = 36;

export const PutDimensionRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    rules: z.array(DimensionRule).min(1).max(MAX_DIMENSION_RULES),
    default_value: DimensionValue.nullable().optional(),
    splits: z.array(SplitRuleInput).max(MAX_SPLITS).optional(),
    effective_from: Month.optional(),
  })
  .superRefine((body, ctx) => {
    let leaves = 0;
    const walk = (c: Condition, path: (string | number)[], depth: number) => {
      if (depth > MAX_CONDITION_DEPTH) {
        ctx.addIssue({ code: "custom", path, message: `conditions nest at most ${MAX_CONDITION_DEPTH} deep` });
        return;
      }
      if (c.field !== undefined) leaves++;
      c.all?.forEach((child, i) => {
        walk(child, [...path, "all", i], depth + 1);
      });
      c.any?.forEach((child, i) => {
        walk(child, [...path, "any", i], depth + 1);
      });
      if (c.not) walk(c.not, [...path, "not"], depth + 1);
    };
    body.rules.forEach((rule, i) => {
      walk(rule.match, ["rules", i, "match"], 1);
    });
    if (leaves > MAX_CONDITION_LEAVES)
      ctx.addIssue({
        code: "custom",
        path: ["rules"],
        message: `a dimension has at most ${MAX_CONDITION_LEAVES} condition leaves; these rules have ${leaves}`,
      });
    checkSplits(body.splits ?? [], ctx);
  })
  .meta({
    id: "PutDimensionRequest",
    description: `A new version of the dimension: 1-${MAX_DIMENSION_RULES} rules (first match wins), a default value (null or absent: unallocated), at most ${MAX_SPLITS} splits, effective from a month (default 12 months before the current one; at most ${MAX_EFFECTIVE_MONTHS_BACK} back).`,
  });
export type PutDimensionRequest = z.output<typeof PutDimensionRequest>;

export const DimensionStatus = z
  .enum(["processing", "applied"])
  .meta({ id: "DimensionStatus", description: "`processing` until the version is applied to the ledger's lines, then `applied`." });

export const Dimension = z
  .object({
    key: DimensionKey,
    name: z.string(),
    description: z.string().nullable(),
    version: z.number().int(),
    effective_from: Month,
    rules: z.array(DimensionRule),
    default_value: z.string().nullable(),
    splits: z.array(SplitRule),
    status: DimensionStatus,
    applied_at: TimestampOutput.nullable(),
    created_at: TimestampOutput,
  })
  .meta({ id: "Dimension", description: "A version of a dimension (the newest unless `?version=` asked for another)." });
export type Dimension = z.output<typeof Dimension>;

export const Dimensions = z
  .object({ items: z.array(Dimension) })
  .meta({ id: "Dimensions", description: "The organization's dimensions, newest version each, by key." });
export const DimensionVersions = z
  .object({ items: z.array(Dimension) })
  .meta({ id: "DimensionVersions", description: "Every version of a dimension, newest first." });

export const DimensionPathParams = OrganizationPathParams.extend({ key: DimensionKey }).meta({
  id: "DimensionPathParams",
  description: "Path parameters of /organizations/{org_id}/dimensions/{key}.",
});
export const DimensionVersionQuery = z
  .object({ version: queryInteger(1, 1_000_000).optional() })
  .meta({ id: "DimensionVersionQuery", description: "`version`: an earlier version (default the newest)." });

export const MAX_PREVIEW_DAYS = 93;
const PREVIEW_DAY_MS = 86_400_000;

export const DimensionPreviewQuery = z
  .object({
    start: DateOrTimestamp,
    end: DateOrTimestamp,
    currency: Currency.optional(),
    metric: SpendMetric.default("billed_cost"),
  })
  .superRefine((query, ctx) => {
    const span = Date.parse(query.end) - Date.parse(query.start);
    if (!(span > 0)) ctx.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
    else if (span > MAX_PREVIEW_DAYS * PREVIEW_DAY_MS)
      ctx.addIssue({ code: "custom", path: ["end"], message: `a preview spans at most ${MAX_PREVIEW_DAYS} days` });
  })
  .meta({
    id: "DimensionPreviewQuery",
    description: `The lines charged from \`start\` (inclusive) to \`end\` (exclusive), at most ${MAX_PREVIEW_DAYS} days, in \`currency\` (default the organization's), summing \`metric\` (default billed_cost).`,
  });
export type DimensionPreviewQuery = z.output<typeof DimensionPreviewQuery>;

export const DimensionPreview = z
  .object({
    start: TimestampOutput,
    end: TimestampOutput,
    currency: z.string(),
    metric: SpendMetric,
    coverage: z.object({
      allocated: DecimalString,
      unallocated: DecimalString,
      percent: DecimalString.nullable().meta({ description: "allocated / (allocated + unallocated) x 100 to two places; null when both are 0." }),
    }),
    values: z.array(
      z.object({
        value: z.string().meta({ description: "`__unallocated__` for the lines without a value." }),
        direct_cost: DecimalString,
        shared_in: DecimalString,
        shared_out: DecimalString,
        cost: DecimalString.meta({ description: "direct_cost - shared_out + shared_in" }),
      }),
    ),
    rules: z.array(z.object({ index: z.number().int(), lines: z.number().int(), cost: DecimalString })),
    unused_rules: z.array(z.number().int()),
  })
  .meta({
    id: "DimensionPreview",
    description: "What a draft version would do to the range's lines, before (coverage, per rule) and after its splits (per value); nothing is saved.",
  });
export type DimensionPreview = z.output<typeof DimensionPreview>;
