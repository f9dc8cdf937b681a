import type { SplitRule } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";

/** Pieces are exact to this many decimal places. */
export const PIECE_PLACES = 10;

/** Orders strings by their UTF-16 code units, the same on every machine (no locale). */
export const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `amount` shared in proportion to `shares` (each >= 0, not all 0), as pieces that sum to it
 * exactly: every piece but the largest share's is amount x share / total truncated toward zero at
 * 10 decimal places; the largest share (the first of equals in the order given) takes the rest.
 */
export function splitAmount(amount: Decimal, shares: [target: string, share: Decimal][]): [target: string, piece: Decimal][] {
  const total = shares.reduce((sum, [, share]) => sum.plus(share), new Decimal(0));
  if (total.lte(0)) throw new Error("splitAmount needs a positive total share");
  let largest = 0;
  shares.forEach(([, share], i) => {
    if (share.gt(shares[largest][1])) largest = i;
  });
  const pieces = shares.map(([target, share], i): [string, Decimal] => [
    target,
    i === largest ? new Decimal(0) : amount.times(share).dividedBy(total).toDecimalPlaces(PIECE_PLACES, Decimal.ROUND_DOWN),
  ]);
  const rest = pieces.reduce((left, [, piece]) => left.minus(piece), amount);
  pieces[largest][1] = rest;
  return pieces;
}

/** A day's direct cost of each value (null: unallocated), in the query's metric. */
export type DayCosts = Map<string | null, Decimal>;

/** What the splits of one day moved: per split, each target's share, and per value what it gave and received. */
export interface DaySplit {
  /** Per split id: the shares its targets were given (their ratios are share / total), in the order of the pieces. */
  shares: Map<string, [target: string, share: Decimal][]>;
  sharedIn: Map<string, Decimal>;
  sharedOut: Map<string | null, Decimal>;
}

/**
 * The splits of one UTC day, in declared order. A split's targets are its list, or with "*" every
 * value with direct cost that day other than the splits' sources (unallocated never is one);
 * shares: even 1 each, fixed its percentages, proportional each target's direct cost that day (a
 * negative one counting 0), metric the metric's amount labelled with the target that day; a day
 * whose shares are all 0 is split evenly. The source's whole direct cost that day goes out.
 */
export function splitDay(direct: DayCosts, splits: SplitRule[], metricAmount: (metric: string, value: string) => Decimal = () => new Decimal(0)): DaySplit {
  const sources = new Set(splits.map((split) => split.source));
  const result: DaySplit = { shares: new Map(), sharedIn: new Map(), sharedOut: new Map() };
  const everyTarget = [...direct.keys()]
    .filter((value): value is string => value !== null && !sources.has(value) && !(direct.get(value) as Decimal).isZero())
    .sort(byteOrder);
  for (const split of splits) {
    const amount = direct.get(split.source) ?? new Decimal(0);
    const targets = split.targets === "*" ? everyTarget : split.targets;
    if (amount.isZero() || targets.length === 0) continue;
    let shares: [string, Decimal][] = targets.map((target) => {
      if (split.method === "fixed") return [target, new Decimal(split.percentages?.[target] ?? 0)];
      if (split.method === "proportional") return [target, Decimal.max(direct.get(target) ?? 0, 0)];
      if (split.method === "metric") return [target, Decimal.max(metricAmount(split.metric as string, target), 0)];
      return [target, new Decimal(1)];
    });
    if (shares.every(([, share]) => share.isZero())) shares = targets.map((target) => [target, new Decimal(1)]);
    result.shares.set(split.id, shares);
    for (const [target, piece] of splitAmount(amount, shares)) result.sharedIn.set(target, (result.sharedIn.get(target) ?? new Decimal(0)).plus(piece));
    result.sharedOut.set(split.source, (result.sharedOut.get(split.source) ?? new Decimal(0)).plus(amount));
  }
  return result;
}

/** A business metric's amount labelled with a value on a UTC day (0 when none is stored). */
export type MetricAmountOf = (metric: string, day: string, value: string) => Decimal;

/**
 * The split shares of each (UTC day, currency), made once from the organization's direct cost of
 * each value that day (rows as the value roll-up holds them: '' is unallocated) and, for `metric`
 * splits, the metric's amounts labelled with each target that day, for the splits in force that day.
 */
export function dayShares(
  rows: { day: string; currency: string; value: string; cost: string }[],
  metricAmount: MetricAmountOf = () => new Decimal(0),
): (day: string, currency: string, splits: SplitRule[]) => DaySplit["shares"] {
  const costs = new Map<string, DayCosts>();
  for (const row of rows) {
    const id = `${row.day}|${row.currency}`;
    const day = costs.get(id) ?? new Map<string | null, Decimal>();
    const value = row.value === "" ? null : row.value;
    day.set(value, (day.get(value) ?? new Decimal(0)).plus(row.cost));
    costs.set(id, day);
  }
  const made = new Map<string, DaySplit["shares"]>();
  return (day, currency, splits) => {
    const id = `${day}|${currency}`;
    let shares = made.get(id);
    if (!shares) {
      shares = splitDay(costs.get(id) ?? new Map(), splits, (metric, value) => metricAmount(metric, day, value)).shares;
      made.set(id, shares);
    }
    return shares;
  };
}
