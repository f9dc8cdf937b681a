// The purchase arithmetic as it was first written (one pass over the hours per evaluation, the
// series built per rate): the reference the recommendations are checked against, so that a faster
// evaluation keeps every figure (docs/commitments.md). Test-only.
import { Decimal } from "@cloudcost/decimal";

const HOUR_MS = 3_600_000;

/** The series of `hours` hours from `start` (ms): each row's cost in its hour, zero where there is none. */
export function hourlySeries(rows: { hour: Date; cost: string }[], start: number, hours: number): Decimal[] {
  const series = new Array<Decimal>(hours).fill(new Decimal(0));
  for (const row of rows) series[Math.round((row.hour.getTime() - start) / HOUR_MS)] = new Decimal(row.cost);
  return series;
}

export interface ReferenceEvaluation {
  /** USD per hour, to the cent. */
  commitment: Decimal;
  /** Over the series' hours. */
  savings: Decimal;
  /** Used commitment / committed, in [0, 1]; null for a zero commitment. */
  utilization: Decimal | null;
  /** On-demand cost the commitment covers / the series' on-demand cost; null when the series is all zero. */
  coverage: Decimal | null;
}

/** savings(c) and the expected utilization and coverage of commitment c (per hour) over series `hours`. */
export function evaluate(hours: Decimal[], discountPercent: Decimal.Value, commitment: Decimal.Value): ReferenceEvaluation {
  const c = new Decimal(commitment);
  const keep = new Decimal(1).minus(new Decimal(discountPercent).dividedBy(100));
  const reach = keep.isZero() ? null : c.dividedBy(keep);
  let total = new Decimal(0);
  let cost = new Decimal(0);
  let used = new Decimal(0);
  let covered = new Decimal(0);
  for (const e of hours) {
    total = total.plus(e);
    const coveredHere = reach === null ? e : Decimal.min(e, reach);
    covered = covered.plus(coveredHere);
    cost = cost.plus(c).plus(e.minus(coveredHere));
    used = used.plus(coveredHere.times(keep));
  }
  const committed = c.times(hours.length);
  return {
    commitment: c,
    savings: total.minus(cost),
    utilization: committed.isZero() ? null : used.dividedBy(committed),
    coverage: total.isZero() ? null : covered.dividedBy(total),
  };
}

/**
 * The commitment (to the cent) with the greatest savings over `hours`; ties go to the smaller
 * commitment. The real optimum is a breakpoint E_h (1 - d); savings being concave, the best cent
 * is the breakpoint rounded down or up.
 */
export function bestCommitment(hours: Decimal[], discountPercent: Decimal.Value): ReferenceEvaluation {
  const keep = new Decimal(1).minus(new Decimal(discountPercent).dividedBy(100));
  const n = hours.length;
  if (n === 0 || keep.isZero() || keep.isNegative()) return evaluate(hours, discountPercent, 0);
  const sorted = [...hours].sort((a, b) => a.comparedTo(b));
  // With the series sorted, for c = sorted[k] * keep the hours from k on are above the reach
  // c / keep = sorted[k]: savings(c) = (sum of those hours - (n - k) * sorted[k]) ... written out:
  // sum E - n c - sum_{j >= k} (E_j - sorted[k]) = (sum_{j < k} E_j + (n - k) sorted[k]) - n c.
  let below = new Decimal(0);
  let bestK = -1;
  let bestSavings = new Decimal(0);
  for (let k = 0; k < n; k++) {
    const e = sorted[k];
    if (k === 0 || !e.eq(sorted[k - 1])) {
      const c = e.times(keep);
      const savings = below.plus(e.times(n - k)).minus(c.times(n));
      if (savings.gt(bestSavings)) {
        bestSavings = savings;
        bestK = k;
      }
    }
    below = below.plus(e);
  }
  if (bestK < 0) return evaluate(hours, discountPercent, 0);
  const optimum = sorted[bestK].times(keep);
  const down = evaluate(hours, discountPercent, optimum.toDecimalPlaces(2, Decimal.ROUND_DOWN));
  const up = evaluate(hours, discountPercent, optimum.toDecimalPlaces(2, Decimal.ROUND_UP));
  return up.savings.gt(down.savings) ? up : down;
}

/** Points (commitment, savings) of the savings curve from 0 to twice the best commitment, for a chart. */
export function savingsCurve(hours: Decimal[], discountPercent: Decimal.Value, best: Decimal, points = 21): { commitment: Decimal; savings: Decimal }[] {
  const top = best.isZero() ? Decimal.max(...hours, new Decimal(0)) : best.times(2);
  return Array.from({ length: points }, (_, i) => {
    const c = top
      .times(i)
      .dividedBy(points - 1)
      .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    return { commitment: c, savings: evaluate(hours, discountPercent, c).savings };
  });
}

const money = (value: Decimal.Value) => new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
const percent = (ratio: Decimal | null) => (ratio === null ? null : ratio.times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));

/**
 * The figures of one recommendation item (as the API formats them) for a series and a discount;
 * `at`: of that commitment instead of the best one.
 */
export function referenceFigures(series: Decimal[], discountPercent: Decimal.Value, withCurve: boolean, at?: Decimal) {
  const best = at === undefined ? bestCommitment(series, discountPercent) : evaluate(series, discountPercent, at);
  const monthly = (savings: Decimal) => money(savings.times(730).dividedBy(series.length));
  return {
    hourly_commitment: money(best.commitment),
    monthly_savings: monthly(best.savings),
    expected_utilization_percent: percent(best.utilization),
    expected_coverage_percent: percent(best.coverage),
    ...(withCurve
      ? {
          savings_curve: savingsCurve(series, discountPercent, best.commitment).map((point) => ({
            hourly_commitment: money(point.commitment),
            monthly_savings: monthly(point.savings),
          })),
        }
      : {}),
  };
}

/** The share of hours (a ratio) whose cost is at least c / (1 - d), counted hour by hour; null for a zero commitment. */
export function hoursAboveBreakEven(hours: Decimal[], discountPercent: Decimal.Value, commitment: Decimal.Value): Decimal | null {
  const c = new Decimal(commitment);
  const keep = new Decimal(1).minus(new Decimal(discountPercent).dividedBy(100));
  if (c.isZero() || hours.length === 0 || !keep.gt(0)) return null;
  const reach = c.dividedBy(keep);
  return new Decimal(hours.filter((e) => e.gte(reach)).length).dividedBy(hours.length);
}

/**
 * A whole recommendation item's figures for a rate (its discount, term and payment option) over a
 * series, written out as docs/commitments.md states them: the purchase figures above, then
 * break-even = (1 - d) x 100, upfront = c x term months x 730 (all), half (partial) or 0, monthly
 * commitment = c x 730, ROI = monthly savings / monthly commitment, and the share of hours at or
 * above the break-even; a zero commitment says `no_savings` with savings 0.00.
 */
export function referenceRateFigures(series: Decimal[], rate: { discount_percent: number; term_months: number; payment_option: string }, withCurve: boolean) {
  const figures = referenceFigures(series, rate.discount_percent, withCurve);
  const c = new Decimal(figures.hourly_commitment);
  const share = rate.payment_option === "all_upfront" ? 1 : rate.payment_option === "partial_upfront" ? 0.5 : 0;
  const monthlyCommitment = money(c.times(730));
  const buys = !c.isZero();
  const monthlySavings = buys ? figures.monthly_savings : "0.00";
  return {
    ...figures,
    monthly_savings: monthlySavings,
    ...(buys ? {} : { reason: "no_savings" }),
    break_even_utilization_percent: money(new Decimal(100).minus(rate.discount_percent)),
    upfront_cost: money(c.times(rate.term_months * 730).times(share)),
    monthly_commitment_cost: monthlyCommitment,
    roi_percent: buys ? percent(new Decimal(monthlySavings).dividedBy(monthlyCommitment)) : null,
    hours_above_break_even_percent: percent(hoursAboveBreakEven(series, rate.discount_percent, c)),
  };
}
