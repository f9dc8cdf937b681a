import { z } from "zod";
import { Currency, KeyText, queryArray, ServiceId } from "../../common.js";
import { isDimensionParameter, UNALLOCATED_FILTER } from "../spend/schemas.js";

const DecimalString = z.string().meta({ description: "An exact decimal as a string." });

export const AnomalyPathParams = z.object({ id: ServiceId }).meta({ id: "AnomalyPathParams", description: "Path parameters of /tenant/spend/anomalies/{id}." });

const Day = z.iso.date().meta({ description: "A UTC day, YYYY-MM-DD." });

export const AnomalyMonitor = z
  .object({
    kind: z.enum(["service", "total", "dimension"]),
    service_name: z.string().nullable().meta({ description: "The service watched; null for the tenant's total and for a dimension's value." }),
    dimension: z.string().optional().meta({ description: "`dimension` monitors: the key of the dimension watched." }),
    value: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "`dimension` monitors: the value watched (its cost after the dimension's splits); null for the unallocated cost." }),
  })
  .meta({
    id: "AnomalyMonitor",
    description:
      "What is watched, in one currency: the usage cost of one service, of all the tenant's services (`total`), or of one value of a dimension of the organization (`dimension`, after its splits).",
  });
export type AnomalyMonitor = z.infer<typeof AnomalyMonitor>;

export const Anomaly = z
  .object({
    id: ServiceId,
    monitor: AnomalyMonitor,
    currency: Currency,
    start: Day.meta({ description: "The first anomalous day." }),
    end: Day.meta({ description: "The last anomalous day (inclusive); a later anomalous day at most 2 normal days after it extends it." }),
    days: z.number().int().positive().meta({ description: "end - start + 1." }),
    day: Day.meta({ description: "= start (kept for compatibility)." }),
    service_name: z.string().nullable().meta({ description: "= monitor.service_name (kept for compatibility)." }),
    cost: DecimalString.meta({ description: "The monitor's usage cost, summed over the anomalous days (the normal days between them are not counted)." }),
    expected: DecimalString.meta({ description: "The expected cost, summed over the days (each day's: see docs/api.md)." }),
    impact: DecimalString.meta({ description: "cost - expected." }),
    score: DecimalString.meta({
      description: "The highest day's score: impact / (1.4826 x the median absolute deviation of its baseline), at least 0.01 as divisor.",
    }),
    reason: z.enum(["spike", "new_service"]).meta({
      description: "`new_service`: a service without cost in its baseline, for as long as it stays above the floors in its first 14 days; else `spike`.",
    }),
    feedback: z.enum(["yes", "no", "planned_activity"]).nullable(),
  })
  .meta({
    id: "Anomaly",
    description:
      "Days on which one monitor's usage cost stood out of its baseline, at most 2 normal days apart. A day within 20 % of the same day of the month in each of the previous 2 months is expected (a monthly job).",
  });
export type Anomaly = z.infer<typeof Anomaly>;

const DimensionValues = queryArray(KeyText);

export const AnomaliesQuery = z
  .looseObject({ start: Day.optional(), end: Day.optional() })
  .transform((query, ctx) => {
    let dimension: { key: string; values: string[] } | undefined;
    for (const name of Object.keys(query).filter((name) => name.startsWith("dimension:"))) {
      if (!isDimensionParameter(name)) {
        ctx.addIssue({ code: "custom", path: [name], message: "a dimension filter is dimension:<key> with a key of [a-z][a-z0-9_]{0,39}" });
        continue;
      }
      const parsed = DimensionValues.safeParse(query[name]);
      if (!parsed.success) ctx.addIssue({ code: "custom", path: [name], message: "dimension values are at most 256 characters each" });
      else if (dimension) ctx.addIssue({ code: "custom", path: [name], message: "one dimension per query" });
      else dimension = { key: name.slice("dimension:".length), values: parsed.data };
    }
    return { start: query.start as string | undefined, end: query.end as string | undefined, dimension };
  })
  .meta({
    id: "AnomaliesQuery",
    description: `Days from \`start\` (inclusive, default 30 days ago) to \`end\` (exclusive, default tomorrow), at most 400 days. \`dimension:<key>=a,b\` lists only the anomalies of that dimension's monitors for those values (${UNALLOCATED_FILTER} for the unallocated cost; no values: every value).`,
  });
export type AnomaliesQuery = z.output<typeof AnomaliesQuery>;

export const AnomalyList = z
  .object({ start: Day, end: Day, items: z.array(Anomaly) })
  .meta({ id: "AnomalyList", description: "The anomalies with a day from start to end, latest end first." });

/** Days a detection on demand scores at most. */
export const ANOMALY_DETECTION_MAX_DAYS = 93;

export const DetectAnomaliesRequest = z
  .object({
    days: z
      .number()
      .int()
      .min(1)
      .max(ANOMALY_DETECTION_MAX_DAYS)
      .default(30)
      .meta({ description: `How many complete days, ending yesterday, to score (at most ${ANOMALY_DETECTION_MAX_DAYS}).` }),
  })
  .meta({ id: "DetectAnomaliesRequest", description: "How many complete days to score (each against its baseline)." });
export type DetectAnomaliesRequest = z.output<typeof DetectAnomaliesRequest>;

export const DetectAnomaliesResponse = z
  .object({
    detected: z.number().int(),
    extended: z.number().int().meta({ description: "How many known anomalies later days extended." }),
    anomalies: z.array(Anomaly),
  })
  .meta({ id: "DetectAnomaliesResponse", description: "The anomalies that started (each emitted `anomaly.detected` once), and how many known ones grew." });

export const AnomalyFeedbackRequest = z.object({ feedback: z.enum(["yes", "no", "planned_activity"]) }).meta({
  id: "AnomalyFeedbackRequest",
  description:
    "Whether the anomaly was a real problem (`yes`), not one (`no`) or expected (`planned_activity`); `no` and `planned_activity` end it and mute its monitor for 7 days.",
});
