import { type SpendReport, UNALLOCATED_FILTER } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { badRequest } from "@cloudcost/http";
import type { MetricAmountsReader } from "../business-metrics/amounts";
import type { QueryMetric } from "../business-metrics/amounts-repository";
import { type ExactCosts, rangeDays, type SpendQueryInput } from "./query";
import type { SpendReads } from "./spend-reads";

const DAY_MS = 86_400_000;
const UNIT_COST_PLACES = 10;
const ZERO = new Decimal(0);

/** The metric a query's `per` names, or a 400 naming `per`. */
export async function perMetricOf(reads: Pick<SpendReads, "sql" | "metricAmounts">, organizationId: string, name: string): Promise<QueryMetric> {
  const metric = await reads.metricAmounts.findQueryMetric(reads.sql, organizationId, name);
  if (!metric)
    throw badRequest(`Invalid query: per: no business metric ${name} in this organization`, [
      { path: "per", message: `no business metric ${name} in this organization` },
    ]);
  return metric;
}

/** cost / (amount / scale) rounded half away from zero to 10 places; null when the amount is 0 or none. */
export function unitCost(cost: Decimal.Value, amount: Decimal | null, scale: number): string | null {
  if (amount === null || amount.isZero()) return null;
  const value = new Decimal(cost).times(scale).dividedBy(amount).toDecimalPlaces(UNIT_COST_PLACES, Decimal.ROUND_HALF_UP);
  return value.isZero() ? "0" : value.toFixed();
}

/** The dimension of the query (grouped or filtered on), if any. */
export interface QueryDimension {
  key: string;
  grouped: boolean;
}

/**
 * The report with each row and total's `metric_amount` and `unit_cost` (docs/api.md, "Business
 * metrics and unit cost"). The metric's amounts of the range's days are read once (summed per day
 * in the database when no label matters). Rows divide by the labels of the query's dimension when
 * its values label the metric (the metric's `dimension`, or, when it names none, a dimension some
 * of whose grouped or filtered values are among the range's labels): grouped, each row by its own
 * value's label (the unallocated row by the amounts without a label); filtered, by the labels of
 * the values filtered on. Otherwise by every label. A row counts the metric's days that overlap its
 * period; a total those of the range. An amount is null when no day of it holds a stored amount of
 * those labels.
 */
export async function addUnitCosts(
  reads: Pick<SpendReads, "sql" | "metricAmounts">,
  amounts: MetricAmountsReader,
  organizationId: string,
  query: SpendQueryInput,
  report: SpendReport,
  exact: ExactCosts,
  metric: QueryMetric,
  dimension: QueryDimension | undefined,
): Promise<SpendReport> {
  const scale = query.per_scale ?? 1;
  const startMs = Date.parse(report.start);
  const endMs = Date.parse(report.end);
  const { from, to } = rangeDays(query.start, query.end);
  // Labels matter only beside a dimension that is (or may be) the metric's.
  const labelsMatter = dimension !== undefined && (metric.dimension_key === null || metric.dimension_key === dimension.key);
  const rows = labelsMatter
    ? await amounts([metric.name], from, to)
    : await reads.metricAmounts.findMetricDayTotals(reads.sql, organizationId, metric.name, from, to);
  /** Per day: the amount of each label ('' none) when labels matter, and the day's total. */
  const byDay = new Map<number, Map<string, Decimal>>();
  const dayTotals = new Map<number, Decimal>();
  const labels = new Set<string>();
  for (const row of rows) {
    const day = Date.parse(`${row.day}T00:00:00.000Z`);
    const amount = new Decimal(row.amount);
    dayTotals.set(day, (dayTotals.get(day) ?? ZERO).plus(amount));
    if (!labelsMatter) continue;
    const amounts = byDay.get(day) ?? new Map<string, Decimal>();
    amounts.set(row.label, amount);
    byDay.set(day, amounts);
    labels.add(row.label);
  }

  const name = dimension ? `dimension:${dimension.key}` : "";
  const filtered = dimension ? query.dimension_filters?.[dimension.key]?.map((value) => (value === UNALLOCATED_FILTER ? "" : value)) : undefined;
  const labelling =
    labelsMatter &&
    (metric.dimension_key !== null ||
      (filtered ?? []).some((value) => value !== "" && labels.has(value)) ||
      (dimension?.grouped === true && report.rows.some((row) => (row.group[name] ?? null) !== null && labels.has(row.group[name] as string))));

  /** The amount of `only` labels (every label when undefined) over the days overlapping [from, to); null when none is stored. */
  const memo = new Map<string, Decimal | null>();
  const amountOf = (fromMs: number, toMs: number, only: string[] | undefined): Decimal | null => {
    const id = `${fromMs}|${toMs}|${only === undefined ? "*" : JSON.stringify(only)}`;
    const known = memo.get(id);
    if (known !== undefined) return known;
    let sum: Decimal | null = null;
    for (let day = Math.floor(fromMs / DAY_MS) * DAY_MS; day < toMs; day += DAY_MS) {
      if (only === undefined) {
        const total = dayTotals.get(day);
        if (total) sum = (sum ?? ZERO).plus(total);
        continue;
      }
      const amounts = byDay.get(day);
      if (!amounts) continue;
      for (const label of new Set(only)) {
        const amount = amounts.get(label);
        if (amount) sum = (sum ?? ZERO).plus(amount);
      }
    }
    memo.set(id, sum);
    return sum;
  };
  const text = (amount: Decimal | null) => (amount === null ? null : amount.toFixed());
  const rowLabels = (row: SpendReport["rows"][number]): string[] | undefined => {
    if (!labelling) return undefined;
    if (dimension?.grouped) return [row.group[name] ?? ""];
    return filtered;
  };
  const totalLabels = labelling ? filtered : undefined;
  return {
    ...report,
    rows: report.rows.map((row, i) => {
      const amount = amountOf(Date.parse(row.period_start), Date.parse(row.period_end), rowLabels(row));
      return { ...row, metric_amount: text(amount), unit_cost: unitCost(exact.rows[i], amount, scale) };
    }),
    totals: report.totals.map((total, i) => {
      const amount = amountOf(startMs, endMs, totalLabels);
      return { ...total, metric_amount: text(amount), unit_cost: unitCost(exact.totals[i], amount, scale) };
    }),
    per: { metric: metric.name, unit: metric.unit, scale, labelled_by: labelling ? name : null },
  };
}
