import type { OrganizationContext } from "../context";
import { centsText, Decimal } from "@cloudcost/decimal";
import type {
  CommitmentCoverageQuery,
  CommitmentRate,
  CommitmentRecommendation,
  CommitmentRecommendationsQuery,
  CommitmentsQuery,
  CommitmentsReport,
  CoverageReport,
} from "@cloudcost/contracts";
import { isManager, type Principal } from "../auth/principal";
import type { AppDeps } from "../deps";
import { bestCommitment, hourlySeries, type SortedSeries, savingsCurve, sortSeries } from "./purchase";
import { findCoverage, findLastOnDemandHour, findOnDemandSeries, findUtilization, type RangeParams, type SeriesScope } from "./repository";

type Deps = Pick<AppDeps, "db" | "pricingApi" | "clock">;

const HOUR_MS = 3_600_000;
/** A month of hours, as the monthly figures of the recommendations count it. */
const HOURS_PER_MONTH = 730;

const percentOf = (part: Decimal.Value, whole: Decimal.Value) =>
  new Decimal(whole).isZero() ? null : new Decimal(part).times(100).dividedBy(whole).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
const orNull = (value: string) => (value === "" ? null : value);

/** Owners and admins: every tenant and the unallocated lines; members and viewers: their tenants (as the organization's spend view). */
function rangeOf(caller: Principal, organizationId: string, query: { start: string; end: string }): RangeParams {
  return { organizationId, tenantIds: isManager(caller.role) ? null : caller.tenantIds, start: query.start, end: query.end };
}

/** Utilization of each commitment in the range (docs/api.md, "Commitments"). */
export async function listCommitments(
  deps: Deps,
  { principal: caller, organization: { id: organizationId } }: OrganizationContext,
  query: CommitmentsQuery,
): Promise<CommitmentsReport> {
  const rows = await findUtilization(deps.db.sql, rangeOf(caller, organizationId, query));
  const total = { used: new Decimal(0), unused: new Decimal(0), covered: new Decimal(0) };
  const items = rows.map((row) => {
    const used = new Decimal(row.used_cost);
    const unused = new Decimal(row.unused_cost);
    const covered = new Decimal(row.covered_list_cost);
    total.used = total.used.plus(used);
    total.unused = total.unused.plus(unused);
    total.covered = total.covered.plus(covered);
    return {
      commitment_discount_id: row.commitment_discount_id,
      category: orNull(row.category),
      type: orNull(row.type),
      provider: orNull(row.provider),
      billing_account_id: orNull(row.billing_account_id),
      ...sums(used, unused, covered),
    };
  });
  return { items, totals: sums(total.used, total.unused, total.covered) };
}

function sums(used: Decimal, unused: Decimal, covered: Decimal) {
  const committed = used.plus(unused);
  return {
    committed_cost: centsText(committed),
    used_cost: centsText(used),
    unused_cost: centsText(unused),
    utilization_percent: percentOf(used, committed),
    covered_list_cost: centsText(covered),
    savings: centsText(covered.minus(used)),
  };
}

/** Coverage of eligible usage by group; members and viewers see their tenants' usage only. */
export async function commitmentCoverage(
  deps: Deps,
  { principal: caller, organization: { id: organizationId } }: OrganizationContext,
  query: CommitmentCoverageQuery,
): Promise<CoverageReport> {
  const rows = await findCoverage(deps.db.sql, rangeOf(caller, organizationId, query), query.group_by);
  const figures = (row: (typeof rows)[number]) => ({
    eligible_list_cost: centsText(row.eligible_list_cost),
    covered_list_cost: centsText(row.covered_list_cost),
    on_demand_cost: centsText(row.on_demand_cost),
    coverage_percent: percentOf(row.covered_list_cost, row.eligible_list_cost),
  });
  const totals = rows.find((row) => row.grouped === 1);
  return {
    group_by: query.group_by,
    rows: rows.filter((row) => row.grouped === 0).map((row) => ({ group: orNull(row.grp), ...figures(row) })),
    totals: totals ? figures(totals) : { eligible_list_cost: "0.00", covered_list_cost: "0.00", on_demand_cost: "0.00", coverage_percent: null },
  };
}

/** The ledger scope of a rate: its provider, category and region ('' for any); its family does not narrow it. */
const scopeOf = (rate: CommitmentRate): SeriesScope => ({ provider: rate.provider, serviceCategory: rate.service_category ?? "", region: rate.region ?? "" });
const scopeKey = (scope: SeriesScope) => JSON.stringify([scope.provider, scope.serviceCategory, scope.region]);

/** Lets the event loop run (other requests, /healthz) between rates. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One purchase recommendation per matching commitment rate of the organization's pricing account
 * (read from the pricing API; an account holds at most 100). The lookback ends at the end of the
 * last hour with on-demand usage (bills arrive late; now at the latest) and spans lookback_days x 24
 * hours. Every scope's series comes from one statement and is sorted once; each rate is then a few
 * operations over its scope's sorted series (purchase.ts).
 */
export async function recommendCommitments(
  deps: Deps,
  { organization: { id: organizationId } }: OrganizationContext,
  query: CommitmentRecommendationsQuery,
): Promise<{ items: CommitmentRecommendation[] }> {
  const rates = (await deps.pricingApi.commitmentRates(organizationId)).entries.filter(
    (rate) =>
      (query.commitment_type === undefined || rate.commitment_type === query.commitment_type) &&
      (query.term_months === undefined || rate.term_months === query.term_months) &&
      (query.payment_option === undefined || rate.payment_option === query.payment_option),
  );
  if (rates.length === 0) return { items: [] };
  const now = deps.clock();
  const nowHour = Math.ceil(now.getTime() / HOUR_MS) * HOUR_MS;
  const last = await findLastOnDemandHour(deps.db.sql, organizationId, new Date(nowHour));
  const end = last === null ? Math.floor(now.getTime() / HOUR_MS) * HOUR_MS : last.getTime() + HOUR_MS;
  const hours = query.lookback_days * 24;
  const start = end - hours * HOUR_MS;
  const window = { start, end, hours };

  const scopes = new Map<string, SeriesScope>();
  for (const rate of rates) scopes.set(scopeKey(scopeOf(rate)), scopeOf(rate));
  const scopeList = [...scopes.values()];
  const rows = await findOnDemandSeries(deps.db.sql, organizationId, new Date(start), new Date(end), scopeList);
  // Rows come in scope order; a scope naming the same series as an earlier one (its provider
  // written in another case) carries no series and shares that one's.
  const sortedOf = new Map<number, SortedSeries>();
  const series = new Map<string, SortedSeries>();
  let none: SortedSeries | undefined;
  for (const row of rows) {
    let sorted = sortedOf.get(row.same_as);
    if (sorted === undefined) {
      const costs = row.costs ?? [];
      if (costs.length === 0) none ??= sortSeries(hourlySeries([], [], hours));
      sorted = costs.length === 0 ? (none as SortedSeries) : sortSeries(hourlySeries(row.hours ?? [], costs, hours));
      sortedOf.set(row.scope, sorted);
      await yieldToEventLoop();
    }
    series.set(scopeKey(scopeList[row.scope - 1] as SeriesScope), sorted);
  }

  const items: CommitmentRecommendation[] = [];
  for (const rate of rates) {
    items.push(recommend(rate, series.get(scopeKey(scopeOf(rate))) as SortedSeries, window, query.include_curve ?? false));
    if (items.length % 10 === 0) await yieldToEventLoop();
  }
  return { items };
}

function recommend(
  rate: CommitmentRate,
  series: SortedSeries,
  window: { start: number; end: number; hours: number },
  withCurve: boolean,
): CommitmentRecommendation {
  const best = bestCommitment(series, rate.discount_percent);
  const monthly = (savings: Decimal) => centsText(savings.times(HOURS_PER_MONTH).dividedBy(window.hours));
  const percent = (ratio: Decimal | null) => (ratio === null ? null : ratio.times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
  return {
    rate_id: rate.id,
    commitment_type: rate.commitment_type,
    term_months: rate.term_months,
    payment_option: rate.payment_option,
    discount_percent: rate.discount_percent,
    hourly_commitment: centsText(best.commitment),
    monthly_savings: monthly(best.savings),
    expected_utilization_percent: percent(best.utilization),
    expected_coverage_percent: percent(best.coverage),
    lookback: { start: new Date(window.start).toISOString(), end: new Date(window.end).toISOString(), hours: window.hours },
    ...(withCurve
      ? {
          savings_curve: savingsCurve(series, rate.discount_percent, best.commitment).map((point) => ({
            hourly_commitment: centsText(point.commitment),
            monthly_savings: monthly(point.savings),
          })),
        }
      : {}),
  };
}
