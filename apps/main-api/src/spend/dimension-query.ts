import { type SplitRule, UNALLOCATED_FILTER, type SpendReport, type SpendRow } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { badRequest } from "@cloudcost/http";
import { type MetricAmountsReader, metricAmountLookup, readOnce, splitMetricNames } from "../business-metrics/amounts";
import type { MetricAmountRow } from "../business-metrics/amounts-repository";
import { compileAssigner } from "../dimensions/rollup";
import { dayShares, splitAmount } from "../dimensions/split";
import type { DirectRow, DirectScope, QueryVersion } from "./dimension-spend-repository";
import {
  ceilDay,
  compareBytes,
  type ExactCosts,
  floorDay,
  LINE_ONLY,
  lineRangesOf,
  periodOf,
  querySpend,
  rangeDays,
  SERVICE_ROLLUP,
  type SpendQueryInput,
  type SpendScope,
} from "./query";
import type { SpendReads } from "./spend-reads";
import { addUnitCosts, perMetricOf } from "./unit-cost";

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const dayText = (ms: number) => iso(ms).slice(0, 10);
const ZERO = new Decimal(0);
/** Amounts as the other spend rows give them: rounded half away from zero to 10 places, no trailing zeros. */
const amount = (value: Decimal) => value.toDecimalPlaces(10, Decimal.ROUND_HALF_UP).toFixed();

/**
 * The spend report, by a dimension when one is grouped or filtered on (else querySpend's); with
 * `per`, each row and total adds the business metric's amount and the unit cost (unit-cost.ts).
 */
export async function spendReport(reads: SpendReads, scope: SpendScope, query: SpendQueryInput): Promise<SpendReport> {
  const grouped = (query.group_by ?? []).find((name) => name.startsWith("dimension:"));
  const key = grouped?.slice("dimension:".length) ?? Object.keys(query.dimension_filters ?? {})[0];
  const per = query.per === undefined ? undefined : await perMetricOf(reads, scope.organizationId, query.per);
  const exact: ExactCosts = { rows: [], totals: [] };
  // Business metrics' amounts over the range's days, each metric read once for the splits and the unit costs.
  const amounts = readOnce((names, from, to) => reads.metricAmounts.findMetricAmounts(reads.sql, scope.organizationId, names, from, to));
  const report =
    key === undefined
      ? await querySpend(reads, scope, query, exact)
      : await queryDimensionSpend(reads, scope, query, key, grouped !== undefined, amounts, exact);
  if (!per) return report;
  const dimension = key === undefined ? undefined : { key, grouped: grouped !== undefined };
  return addUnitCosts(reads, amounts, scope.organizationId, query, report, exact, per, dimension);
}

/** One piece of cost after the splits: a value's direct cost, or what a split moved in or out. */
interface Piece {
  day: string;
  currency: string;
  g: string;
  value: string | null;
  direct: Decimal;
  in: Decimal;
  out: Decimal;
  lines: number;
}
/** A piece as read, before the splits: with its line's unpriced reason and charge category (what a split's charge_categories select). */
type DirectPiece = Piece & { reason: string; chargeCategory: string };

/**
 * The spend report by dimension `key` (docs/api.md, "Dimensions"): each line's direct cost under
 * the value its version for the line's month gives it, from spend_dimension_daily for whole days
 * when every filter and the other grouped name are among its columns, else (and for the partial
 * days at the range's edges) from the lines grouped by what the rules read; then, unless
 * `allocation=direct`, each day's splits of that month's version: a source's row is shared among
 * the targets in the day's shares (made of the whole organization's direct costs that day), each
 * piece keeping the row's other attributes; then the dimension's filter. Rows add direct_cost,
 * shared_in and shared_out when the dimension is grouped.
 */
async function queryDimensionSpend(
  reads: SpendReads,
  scope: SpendScope,
  query: SpendQueryInput,
  key: string,
  grouped: boolean,
  amounts: MetricAmountsReader,
  exact?: ExactCosts,
): Promise<SpendReport> {
  const groupBy = query.group_by ?? [];
  const { versions, unknown } = await reads.dimensionSpend.readVersionsOf(reads.sql, scope.organizationId, [key]);
  if (unknown.length) {
    const path = grouped ? "group_by" : `dimension:${key}`;
    throw badRequest(`Invalid query: ${path}: no dimension ${key} in this organization`, [{ path, message: `no dimension ${key} in this organization` }]);
  }
  const other = groupBy.find((name) => name !== `dimension:${key}`);
  const direct: DirectScope = {
    organizationId: scope.organizationId,
    tenantIds: scope.tenantIds,
    filters: query.filters,
    tags: query.tags,
    other,
    metric: query.metric,
  };
  const rollupReadable =
    Object.keys(query.tags).length === 0 &&
    (other === undefined || SERVICE_ROLLUP.has(other)) &&
    Object.keys(query.filters).every((name) => SERVICE_ROLLUP.has(name));
  const startMs = Date.parse(query.start);
  const endMs = Date.parse(query.end);
  const dayStart = ceilDay(startMs);
  const dayEnd = floorDay(endMs);
  const rollupDays = rollupReadable && dayStart < dayEnd && !LINE_ONLY.has(other ?? "");
  const assigner = compileAssigner(versions);
  const rows: DirectRow[] = [];
  if (rollupDays) rows.push(...(await reads.dimensionSpend.rollupDirectRows(reads.sql, direct, key, dayText(dayStart), dayText(dayEnd))));
  for (const [from, to] of lineRangesOf(startMs, endMs, dayStart, dayEnd, rollupDays))
    rows.push(...(await reads.dimensionSpend.lineDirectRows(reads.sql, direct, assigner.fields, iso(from), iso(to))));
  const valueOfRow = (row: DirectRow): string | null => {
    if (row.fields === null) return row.value === "" || row.value === null ? null : row.value;
    return assigner.assign(row.day.slice(0, 7), row.fields).get(key) ?? null;
  };
  const read: DirectPiece[] = rows.map((row) => ({
    day: row.day,
    currency: row.currency,
    g: row.g,
    value: valueOfRow(row),
    direct: new Decimal(row.cost),
    in: ZERO,
    out: ZERO,
    lines: Number(row.lines),
    reason: row.reason,
    chargeCategory: row.charge_category,
  }));
  let unpriced = read.filter((piece) => piece.reason !== "");
  const priced = read.filter((piece) => piece.reason === "");
  let pieces: Piece[] =
    (query.allocation ?? "split") === "split"
      ? await applySplits(
          reads,
          scope.organizationId,
          key,
          query.metric,
          versions.filter((row) => row.key === key),
          priced,
          (names) => {
            const { from, to } = rangeDays(query.start, query.end);
            return amounts(names, from, to);
          },
        )
      : priced;
  const accepted = query.dimension_filters?.[key];
  if (accepted) {
    const values = new Set(accepted.map((value) => (value === UNALLOCATED_FILTER ? null : value)));
    pieces = pieces.filter((piece) => values.has(piece.value));
    unpriced = unpriced.filter((piece) => values.has(piece.value));
  }
  return report(query, groupBy, key, grouped, pieces, unpriced, startMs, endMs, exact);
}

/** The version of a month: the newest whose month is not after it. */
const versionOf = (versions: QueryVersion[], month: string) => versions.find((row) => row.effective_from <= month);

async function applySplits(
  reads: Pick<SpendReads, "sql" | "dimensionSpend">,
  organizationId: string,
  key: string,
  metric: SpendQueryInput["metric"],
  versions: QueryVersion[],
  pieces: DirectPiece[],
  /** The amounts of business metrics over the query's days (`metric` splits' shares). */
  metricAmounts: (names: string[]) => Promise<MetricAmountRow[]>,
): Promise<Piece[]> {
  const days = [...new Set(pieces.map((piece) => piece.day))].sort();
  const splitting = days.filter((day) => (versionOf(versions, day.slice(0, 7))?.splits.length ?? 0) > 0);
  if (splitting.length === 0) return pieces;
  const next = new Date(Date.parse(`${splitting[splitting.length - 1]}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  // The business metrics `metric` splits share by: their amounts of the query's days, read once.
  const inForce = new Set(splitting.map((day) => versionOf(versions, day.slice(0, 7)) as QueryVersion));
  const metrics = splitMetricNames([...inForce].flatMap((version) => version.splits));
  const metricAmount = metricAmountLookup(metrics.length ? await metricAmounts(metrics) : []);
  const sharesOf = dayShares(await reads.dimensionSpend.organizationDayCosts(reads.sql, organizationId, key, metric, splitting[0], next), metricAmount);
  const splitsOf = (day: string): SplitRule[] => versionOf(versions, day.slice(0, 7))?.splits ?? [];
  const out: Piece[] = [];
  for (const piece of pieces) {
    const splits = splitsOf(piece.day);
    const split = splits.find(
      (rule) => rule.source === piece.value && (!rule.charge_categories?.length || (rule.charge_categories as string[]).includes(piece.chargeCategory)),
    );
    const targets = split ? sharesOf(piece.day, piece.currency, splits).get(split.id) : undefined;
    if (!split || !targets || piece.direct.isZero()) {
      out.push(piece);
      continue;
    }
    out.push({ ...piece, out: piece.direct });
    for (const [target, share] of splitAmount(piece.direct, targets))
      out.push({ day: piece.day, currency: piece.currency, g: piece.g, value: target, direct: ZERO, in: share, out: ZERO, lines: 0 });
  }
  return out;
}

function report(
  query: SpendQueryInput,
  groupBy: string[],
  key: string,
  grouped: boolean,
  pieces: Piece[],
  unpriced: DirectPiece[],
  startMs: number,
  endMs: number,
  exact?: ExactCosts,
): SpendReport {
  const dimensionName = `dimension:${key}`;
  const periodDay = (day: string) => (query.granularity === "day" ? day : query.granularity === "month" ? `${day.slice(0, 7)}-01` : query.start.slice(0, 10));
  const sums = new Map<string, { period: string; keys: (string | null)[]; currency: string; direct: Decimal; in: Decimal; out: Decimal; lines: number }>();
  const totals = new Map<string, Decimal>();
  for (const piece of pieces) {
    if (piece.currency === "") continue;
    const period = periodDay(piece.day);
    const keys = groupBy.map((name) => (name === dimensionName ? piece.value : piece.g === "" ? null : piece.g));
    const id = JSON.stringify([period, keys, piece.currency]);
    const sum = sums.get(id) ?? { period, keys, currency: piece.currency, direct: ZERO, in: ZERO, out: ZERO, lines: 0 };
    sum.direct = sum.direct.plus(piece.direct);
    sum.in = sum.in.plus(piece.in);
    sum.out = sum.out.plus(piece.out);
    sum.lines += piece.lines;
    sums.set(id, sum);
    totals.set(piece.currency, (totals.get(piece.currency) ?? ZERO).plus(piece.direct).minus(piece.out).plus(piece.in));
  }
  const periods = new Map<string, [string, string]>();
  const rows = [...sums.values()]
    .filter((sum) => sum.lines !== 0 || !sum.in.isZero() || !sum.out.isZero() || !sum.direct.isZero())
    .map((sum) => {
      let bounds = periods.get(sum.period);
      if (!bounds) {
        const [from, to] = periodOf(query.granularity, sum.period, startMs, endMs);
        bounds = [iso(from), iso(to)];
        periods.set(sum.period, bounds);
      }
      const cost = sum.direct.minus(sum.out).plus(sum.in);
      const row: SpendRow = {
        period_start: bounds[0],
        period_end: bounds[1],
        group: Object.fromEntries(groupBy.map((name, i) => [name, sum.keys[i]])),
        currency: sum.currency,
        cost: amount(cost),
      };
      if (grouped) Object.assign(row, { direct_cost: amount(sum.direct), shared_in: amount(sum.in), shared_out: amount(sum.out) });
      return { row, exact: cost, keys: sum.keys };
    })
    .sort((a, b) => {
      if (a.row.period_start !== b.row.period_start) return a.row.period_start < b.row.period_start ? -1 : 1;
      const byCost = b.exact.comparedTo(a.exact);
      if (byCost !== 0) return byCost;
      for (let i = 0; i < a.keys.length; i++) {
        const byKey = compareBytes(a.keys[i], b.keys[i]);
        if (byKey !== 0) return byKey;
      }
      return compareBytes(a.row.currency, b.row.currency);
    });
  const sortedTotals = [...totals].sort(([a], [b]) => compareBytes(a, b));
  if (exact) {
    exact.rows = rows.map((row) => row.exact.toFixed());
    exact.totals = sortedTotals.map(([, cost]) => cost.toFixed());
  }
  const byReason: Record<string, number> = {};
  let unpricedLines = 0;
  for (const piece of unpriced) {
    byReason[piece.reason] = (byReason[piece.reason] ?? 0) + piece.lines;
    unpricedLines += piece.lines;
  }
  return {
    start: iso(startMs),
    end: iso(endMs),
    granularity: query.granularity,
    metric: query.metric,
    group_by: groupBy,
    rows: rows.map(({ row }) => row),
    totals: sortedTotals.map(([currency, cost]) => ({ currency, cost: amount(cost) })),
    unpriced: { lines: unpricedLines, by_reason: byReason },
  };
}
