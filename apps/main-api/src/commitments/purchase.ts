import { Decimal, parse, plus, type Scaled, toText, ZERO } from "@cloudcost/decimal";

/**
 * The hourly commitment to buy (docs/commitments.md). With an hourly series E_h of on-demand cost
 * and a commitment of c per hour at discount d, each hour costs c (paid whether used or not) plus
 * the on-demand cost the commitment did not cover, max(0, E_h - c / (1 - d)): c buys c / (1 - d)
 * of on-demand usage. savings(c) = sum E_h - sum (c + max(0, E_h - c / (1 - d))) is concave and
 * piecewise linear in c, its slope changing only where c = E_h (1 - d); its maximum is at one of
 * those breakpoints (or 0).
 *
 * A series is sorted once, with running sums (`sortSeries`); then every figure of a commitment is a
 * binary search and a few operations, and the best commitment is read off the sorted series, so
 * that many rates over one series cost little more than one.
 */

/** The series of `hours` hours: each cost (as the database writes it) at its hour (hours since the start), "0" where there is none. */
export function hourlySeries(at: readonly (string | number)[], costs: readonly string[], hours: number): string[] {
  const series = new Array<string>(hours).fill("0");
  for (let i = 0; i < costs.length; i++) series[Number(at[i])] = costs[i] as string;
  return series;
}

/** An hourly series, sorted: what every evaluation over it reads. */
export interface SortedSeries {
  /** The hours' costs, smallest first. */
  sorted: Decimal[];
  /** The sum of the k smallest costs, exactly (k = n: the series' total). */
  prefix(k: number): Decimal;
}

/**
 * Enough digits that no sum or product the choices make is ever rounded (costs have at most 38
 * digits, discounts at most 17 significant ones): the figures themselves are computed with the
 * default 20 significant digits, as they always were, but whether one commitment saves more than
 * another is decided exactly, so that ties really go to the smaller one.
 */
const Exact = Decimal.clone({ precision: 100 });

/**
 * Sorts a series and sums it. Costs are ordered by their nearest doubles (parsing rounds, so it
 * never orders two costs wrongly, and comparing numbers is cheap), then exactly within a run of
 * equal doubles whose costs differ. The running sums are exact (@cloudcost/decimal's fixed point,
 * BigInt: the roll-up's 10 places or any other); each is made a Decimal when read.
 */
export function sortSeries(hours: readonly (string | Decimal)[]): SortedSeries {
  const keyed = hours.map((cost) => {
    const text = typeof cost === "string" ? cost : cost.toFixed();
    return { text, approx: Number(text) };
  });
  keyed.sort((a, b) => a.approx - b.approx);
  for (let from = 0; from < keyed.length; ) {
    let to = from + 1;
    let mixed = false;
    while (to < keyed.length && keyed[to].approx === keyed[from].approx) {
      if (!mixed && keyed[to].text !== keyed[from].text && !new Decimal(keyed[to].text).eq(keyed[from].text)) mixed = true;
      to++;
    }
    if (mixed) {
      const run = keyed.slice(from, to).sort((a, b) => new Decimal(a.text).comparedTo(b.text));
      keyed.splice(from, run.length, ...run);
    }
    from = to;
  }
  const sorted = keyed.map((entry) => new Decimal(entry.text));
  const sums = new Array<Scaled>(sorted.length + 1);
  sums[0] = ZERO;
  for (let k = 0; k < keyed.length; k++) sums[k + 1] = plus(sums[k] as Scaled, parse(keyed[k].text));
  const read = new Array<Decimal | undefined>(sorted.length + 1);
  return { sorted, prefix: (k) => (read[k] ??= new Decimal(toText(sums[k] as Scaled))) };
}

/** The number of hours whose cost is below `value` (`orEqual`: at most `value`). */
function countBelow(sorted: Decimal[], value: Decimal, orEqual: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const cmp = sorted[mid].comparedTo(value);
    if (cmp < 0 || (orEqual && cmp === 0)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The share of the series' hours whose cost is at least c / (1 - d), the on-demand cost at which
 * the commitment of that hour breaks even (a ratio in [0, 1]); null for a zero commitment or an
 * empty series.
 */
export function hoursAboveBreakEven(series: SortedSeries, discountPercent: Decimal.Value, commitment: Decimal.Value): Decimal | null {
  const c = new Decimal(commitment);
  const n = series.sorted.length;
  const keep = new Decimal(1).minus(new Decimal(discountPercent).dividedBy(100));
  if (c.isZero() || n === 0 || !keep.gt(0)) return null;
  return new Decimal(n - countBelow(series.sorted, c.dividedBy(keep), false)).dividedBy(n);
}

export interface PurchaseEvaluation {
  /** USD per hour, to the cent. */
  commitment: Decimal;
  /** Over the series' hours. */
  savings: Decimal;
  /** Used commitment / committed, in [0, 1]; null for a zero commitment. */
  utilization: Decimal | null;
  /** On-demand cost the commitment covers / the series' on-demand cost; null when the series is all zero. */
  coverage: Decimal | null;
}

/**
 * savings(c) and the expected utilization and coverage of commitment c (per hour) over the series.
 * With reach r = c / (1 - d), the hours up to r are covered whole and the k hours above it for r
 * each: covered = (sum of the hours up to r) + k r, the cost is n c + (sum of the hours above r) - k r,
 * and the commitment used is covered x (1 - d).
 */
export function evaluate(series: SortedSeries, discountPercent: Decimal.Value, commitment: Decimal.Value): PurchaseEvaluation {
  const { sorted, prefix } = series;
  const n = sorted.length;
  const total = prefix(n);
  const c = new Decimal(commitment);
  const keep = new Decimal(1).minus(new Decimal(discountPercent).dividedBy(100));
  const reach = keep.isZero() ? null : c.dividedBy(keep);
  let covered = total;
  let uncovered = new Decimal(0);
  if (reach !== null) {
    const within = countBelow(sorted, reach, true);
    const capped = reach.times(n - within);
    covered = prefix(within).plus(capped);
    uncovered = total.minus(prefix(within)).minus(capped);
  }
  const committed = c.times(n);
  return {
    commitment: c,
    savings: total.minus(committed.plus(uncovered)),
    utilization: committed.isZero() ? null : covered.times(keep).dividedBy(committed),
    coverage: total.isZero() ? null : covered.dividedBy(total),
  };
}

/**
 * (1 - d) x savings(c), exactly: with keep = 1 - d and the k hours whose keep x E_h is at most c,
 * keep x (sum E_h - n c - sum over the other hours of (E_h - c / keep)) = keep P_k + (n - k) c - n keep c.
 * No division, so nothing is rounded; keep > 0.
 */
function scaledSavings(series: SortedSeries, keep: Decimal, commitment: Decimal.Value): Decimal {
  const { sorted, prefix } = series;
  const n = sorted.length;
  const c = new Exact(commitment);
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keep.times(sorted[mid]).lte(c)) low = mid + 1;
    else high = mid;
  }
  return keep
    .times(prefix(low))
    .plus(c.times(n - low))
    .minus(keep.times(c).times(n));
}

/**
 * The commitment (to the cent) with the greatest savings over the series; ties go to the smaller
 * commitment. With the series sorted s_0 <= ... <= s_(n-1) and keep = 1 - d, the breakpoint of the
 * value first at index k saves (sum of s_j for j < k) + (n - k) s_k - n keep s_k. From one distinct
 * value s_a to the next, s_b (first at index b), savings change by (s_b - s_a)(n - b - n keep):
 * they rise while b < n (1 - keep) and never again after. So the first best breakpoint is the value
 * at index ceil(n (1 - keep)) - 1 (the first value when that is below 0); when it saves nothing the
 * answer is 0. Savings being concave, the best cent is the breakpoint rounded down or up, the one
 * saving more (compared exactly; the smaller when they save the same).
 */
export function bestCommitment(series: SortedSeries, discountPercent: Decimal.Value): PurchaseEvaluation {
  const { sorted, prefix } = series;
  const keep = new Decimal(1).minus(new Decimal(discountPercent).dividedBy(100));
  const n = sorted.length;
  if (n === 0 || keep.isZero() || keep.isNegative()) return evaluate(series, discountPercent, 0);
  const exactKeep = new Exact(1).minus(new Exact(discountPercent).dividedBy(100));
  const rising = new Exact(n).minus(exactKeep.times(n)).ceil().toNumber();
  const e = sorted[Math.min(Math.max(rising, 1), n) - 1];
  const k = countBelow(sorted, e, false);
  const saves = new Exact(prefix(k)).plus(new Exact(e).times(n - k)).minus(exactKeep.times(e).times(n));
  if (!saves.gt(0)) return evaluate(series, discountPercent, 0);
  const optimum = e.times(keep);
  const down = optimum.toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const up = optimum.toDecimalPlaces(2, Decimal.ROUND_UP);
  const better = scaledSavings(series, exactKeep, up).gt(scaledSavings(series, exactKeep, down)) ? up : down;
  return evaluate(series, discountPercent, better);
}

/** Points (commitment, savings) of the savings curve from 0 to twice the best commitment, for a chart. */
export function savingsCurve(series: SortedSeries, discountPercent: Decimal.Value, best: Decimal, points = 21): { commitment: Decimal; savings: Decimal }[] {
  const largest = series.sorted[series.sorted.length - 1];
  const top = best.isZero() ? Decimal.max(largest ?? 0, 0) : best.times(2);
  return Array.from({ length: points }, (_, i) => {
    const c = top
      .times(i)
      .dividedBy(points - 1)
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    return { commitment: c, savings: evaluate(series, discountPercent, c).savings };
  });
}
