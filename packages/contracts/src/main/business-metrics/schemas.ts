import { z } from "zod";
import { TimestampOutput } from "../../common.js";
import { boundedDecimal, DecimalBoundError } from "../../decimal-bounds.js";
import { DimensionKey, DimensionValue } from "../dimensions/schemas.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import { DecimalString } from "../spend/schemas.js";

/** A business metric's name: a dimension key's syntax (queries name it `per=<name>`). */
export const BusinessMetricName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, "must be a lowercase letter then up to 39 lowercase letters, digits or underscores")
  .meta({ id: "BusinessMetricName", description: "`[a-z][a-z0-9_]{0,39}`, e.g. `orders` or `active_users`." });
export type BusinessMetricName = z.infer<typeof BusinessMetricName>;

/** At most this many metrics per organization. */
export const MAX_BUSINESS_METRICS = 100;
/** Values in one request (JSON items or CSV rows). */
export const MAX_METRIC_VALUES_PER_REQUEST = 10_000;
/** The longest range of days a values read covers. */
export const MAX_METRIC_VALUES_RANGE_DAYS = 400;
/** A CSV body of values: at most this many bytes. */
export const METRIC_CSV_MAX_BYTES = 4 * 1024 * 1024;
/** As route tables write a body limit. */
export const METRIC_VALUES_BODY_LIMIT = "4 MiB";

export const PutBusinessMetricRequest = z
  .object({
    unit: z.string().trim().min(1).max(64).meta({ description: "What one unit counts: `order`, `user`, `GB`, `request`." }),
    description: z.string().max(2000).nullable().optional(),
    dimension: DimensionKey.nullable().optional().meta({
      description:
        "The key of the dimension whose values label the metric's amounts; unit costs grouped by it divide each value's cost by its own label's amount. Optional: without it, a grouped dimension whose values appear among the labels is taken.",
    }),
  })
  .meta({
    id: "PutBusinessMetricRequest",
    description: "Creates the metric or changes its unit, description and labelling dimension (values stay).",
  });
export type PutBusinessMetricRequest = z.output<typeof PutBusinessMetricRequest>;

export const BusinessMetric = z
  .object({
    name: BusinessMetricName,
    unit: z.string(),
    description: z.string().nullable(),
    dimension: z.string().nullable().meta({ description: "The key of the dimension whose values label it; null when not said." }),
    created_at: TimestampOutput,
    updated_at: TimestampOutput,
  })
  .meta({ id: "BusinessMetric", description: "A daily business metric (orders, active users, requests) that spend is divided by." });
export type BusinessMetric = z.output<typeof BusinessMetric>;

export const BusinessMetrics = z
  .object({ items: z.array(BusinessMetric) })
  .meta({ id: "BusinessMetrics", description: "The organization's business metrics, by name." });

export const BusinessMetricPathParams = OrganizationPathParams.extend({ name: BusinessMetricName }).meta({
  id: "BusinessMetricPathParams",
  description: "Path parameters of /organizations/{org_id}/business-metrics/{name}.",
});

const AMOUNT_TEXT = /^\d{1,18}(\.\d{1,10})?$/;
const AMOUNT_MESSAGE = 'must be a decimal >= 0 below 10^18 with at most 10 decimal places (a string such as "12.5", or a JSON number)';

/** `value` (a string or a JSON number) as a decimal string, or undefined when it is no amount. */
export function metricAmountText(value: unknown): string | undefined {
  if (typeof value === "string") return AMOUNT_TEXT.test(value) ? value : undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value >= 1e18) return undefined;
  try {
    const text = boundedDecimal(String(value));
    return AMOUNT_TEXT.test(text) ? text : undefined;
  } catch (err) {
    if (err instanceof DecimalBoundError) return undefined;
    throw err;
  }
}

/** An amount of a metric: >= 0, at most 10 decimal places, as a decimal string or a JSON number. */
export const MetricAmount = z
  .union([z.string(), z.number()])
  .transform((value, ctx) => {
    const text = metricAmountText(value);
    if (text === undefined) {
      ctx.addIssue({ code: "custom", message: AMOUNT_MESSAGE });
      return z.NEVER;
    }
    return text;
  })
  .meta({
    id: "MetricAmount",
    description: "An amount >= 0 with at most 10 decimal places, below 10^18: a decimal string or a JSON number.",
    override: {
      oneOf: [
        { type: "string", pattern: AMOUNT_TEXT.source },
        { type: "number", minimum: 0 },
      ],
      description: 'An amount >= 0 with at most 10 decimal places, below 10^18: a decimal string (`"1250.5"`) or a JSON number.',
    },
  });

export const MetricLabel = DimensionValue.meta({ id: "MetricLabel", description: "A value of a dimension the amount belongs to: 1-128 characters." });

export const MetricValueInput = z
  .object({
    date: z.iso.date().meta({ description: "The UTC day, `YYYY-MM-DD`." }),
    amount: MetricAmount,
    label: MetricLabel.nullable().optional().meta({ description: "A value of a dimension (a team, a product); absent or null: no label." }),
  })
  .meta({ id: "MetricValueInput", description: "One day's amount, for one label or none." });
export type MetricValueInput = z.output<typeof MetricValueInput>;

export const MetricValuesMode = z.enum(["sum", "replace"]).meta({
  id: "MetricValuesMode",
  description: "`sum`: each amount is added to what is stored for its (date, label); `replace`: it takes the place of what is stored for its (date, label).",
});
export type MetricValuesMode = z.infer<typeof MetricValuesMode>;

export const PostMetricValuesRequest = z
  .object({
    mode: MetricValuesMode.optional().meta({ description: "Default `sum` (or the query's `mode`)." }),
    values: z.array(MetricValueInput).min(1).max(MAX_METRIC_VALUES_PER_REQUEST),
  })
  .meta({
    id: "PostMetricValuesRequest",
    description: `1-${MAX_METRIC_VALUES_PER_REQUEST} amounts stored all or nothing; amounts of the same (date, label) in one request are added together first.`,
  });
export type PostMetricValuesRequest = z.output<typeof PostMetricValuesRequest>;

export const PostMetricValuesQuery = z
  .object({
    mode: MetricValuesMode.optional().meta({
      description: "The mode of a `text/csv` body (default `sum`); with a JSON body, the same as its `mode` if it has one (a 400 otherwise).",
    }),
  })
  .meta({ id: "PostMetricValuesQuery", description: "`mode` of a `text/csv` body." });

export const MetricValuesPosted = z
  .object({
    name: BusinessMetricName,
    mode: MetricValuesMode,
    received: z.number().int().meta({ description: "Amounts in the request (JSON items or CSV rows)." }),
    stored: z.number().int().meta({ description: "Distinct (date, label) pairs written." }),
    first_date: z.iso.date(),
    last_date: z.iso.date(),
  })
  .meta({ id: "MetricValuesPosted", description: "What a values request stored." });
export type MetricValuesPosted = z.output<typeof MetricValuesPosted>;

const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const MetricValuesQuery = z
  .object({
    start: z.iso.date().optional().meta({ description: "The first day (inclusive), `YYYY-MM-DD`; default the first of `end`'s month." }),
    end: z.iso.date().optional().meta({ description: "The day after the last (exclusive), `YYYY-MM-DD`; default tomorrow (UTC): today is read." }),
  })
  .transform((query, ctx) => {
    const end = query.end ?? dayOf(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS);
    const start = query.start ?? `${dayOf(Date.parse(end) - DAY_MS).slice(0, 7)}-01`;
    const span = Date.parse(end) - Date.parse(start);
    if (!(span > 0)) ctx.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
    else if (span > MAX_METRIC_VALUES_RANGE_DAYS * DAY_MS)
      ctx.addIssue({ code: "custom", path: ["end"], message: `the range may span at most ${MAX_METRIC_VALUES_RANGE_DAYS} days` });
    return { start, end };
  })
  .meta({
    id: "MetricValuesQuery",
    description: `Days from \`start\` (inclusive) to \`end\` (exclusive), at most ${MAX_METRIC_VALUES_RANGE_DAYS} days; default the current UTC month up to today.`,
  });
export type MetricValuesQuery = z.output<typeof MetricValuesQuery>;

export const MetricValues = z
  .object({
    name: BusinessMetricName,
    unit: z.string(),
    start: z.iso.date(),
    end: z.iso.date(),
    rows: z.array(
      z.object({
        date: z.iso.date(),
        label: z.string().nullable().meta({ description: "null: the amount without a label." }),
        amount: DecimalString,
      }),
    ),
  })
  .meta({ id: "MetricValues", description: "The stored amounts of the range by date, then label in byte order (the amount without a label first)." });
export type MetricValues = z.output<typeof MetricValues>;
