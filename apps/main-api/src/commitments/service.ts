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
import type { SqlClient } from "@cloudcost/db";
import type { InternalPricingApi } from "../pricing/internal-client";
import { bestCommitment, hourlySeries, hoursAboveBreakEven, type SortedSeries, savingsCurve, sortSeries } from "./purchase";
import type { CommitmentRepository, RangeParams, SeriesScope } from "./repository";

export interface CommitmentServiceDeps {
  /** The driver's client every statement of `commitments` runs on. */
  sql: SqlClient;
  commitments: CommitmentRepository;
  /** The commitment rates of the organization's pricing account. */
  pricingApi: Pick<InternalPricingApi, "commitmentRates">;
  clock: () => Date;
}

export type CommitmentService = ReturnType<typeof createCommitmentService>;

/** Commitments of an organization (docs/commitments.md): utilization, coverage and purchase recommendations. */
export function createCommitmentService(deps: CommitmentServiceDeps) {
  return {
    listCommitments: (ctx: OrganizationContext, query: CommitmentsQuery) => listCommitments(deps, ctx, query),
    commitmentCoverage: (ctx: OrganizationContext, query: CommitmentCoverageQuery) => commitmentCoverage(deps, ctx, query),
    recommendCommitments: (ctx: OrganizationContext, query: CommitmentRecommendationsQuery) => recommendCommitments(deps, ctx, query),
  };
}

type Deps = CommitmentServiceDeps;

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

/** The key of a provider and currency, whose figures are never summed with another's. */
const totalsKey = (provider: string, currency: string) => JSON.stringify([provider, currency]);

/**
 * Utilization and net savings of each commitment in the range (docs/commitments.md), and their
 * totals per provider and currency.
 */
async function listCommitments(
  deps: Deps,
  { principal: caller, organization: { id: organizationId } }: OrganizationContext,
  query: CommitmentsQuery,
): Promise<CommitmentsReport> {
  const rows = await deps.commitments.findUtilization(deps.sql, rangeOf(caller, organizationId, query));
  const totals = new Map<string, { provider: string; currency: string; used: Decimal; unused: Decimal; equivalent: Decimal }>();
  const items = rows.map((row) => {
    const used = new Decimal(row.used_cost);
    const unused = new Decimal(row.unused_cost);
    const equivalent = new Decimal(row.on_demand_equivalent);
    const key = totalsKey(row.provider, row.currency);
    const total = totals.get(key) ?? {
      provider: row.provider,
      currency: row.currency,
      used: new Decimal(0),
      unused: new Decimal(0),
      equivalent: new Decimal(0),
    };
    total.used = total.used.plus(used);
    total.unused = total.unused.plus(unused);
    total.equivalent = total.equivalent.plus(equivalent);
    totals.set(key, total);
    return {
      commitment_discount_id: row.commitment_discount_id,
      category: orNull(row.category),
      type: orNull(row.type),
      provider: orNull(row.provider),
      currency: orNull(row.currency),
      billing_account_id: orNull(row.billing_account_id),
      ...sums(used, unused, equivalent),
    };
  });
  return {
    items,
    totals: [...totals.values()]
      .sort((a, b) => (a.provider === b.provider ? compareText(a.currency, b.currency) : compareText(a.provider, b.provider)))
      .map((total) => ({ provider: orNull(total.provider), currency: orNull(total.currency), ...sums(total.used, total.unused, total.equivalent) })),
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A commitment's figures: committed = used + unused, net savings = on-demand equivalent - committed. */
function sums(used: Decimal, unused: Decimal, equivalent: Decimal) {
  const committed = used.plus(unused);
  const net = equivalent.minus(committed);
  return {
    on_demand_equivalent: centsText(equivalent),
    used_cost: centsText(used),
    unused_cost: centsText(unused),
    committed_cost: centsText(committed),
    utilization_percent: percentOf(used, committed),
    net_savings: centsText(net),
    savings_percent: percentOf(net, equivalent),
  };
}

/** Coverage of eligible usage per provider, currency and group; members and viewers see their tenants' usage only. */
async function commitmentCoverage(
  deps: Deps,
  { principal: caller, organization: { id: organizationId } }: OrganizationContext,
  query: CommitmentCoverageQuery,
): Promise<CoverageReport> {
  const rows = await deps.commitments.findCoverage(deps.sql, rangeOf(caller, organizationId, query), query.group_by);
  const figures = (row: (typeof rows)[number]) => ({
    provider: orNull(row.provider),
    currency: orNull(row.currency),
    covered_on_demand_equivalent: centsText(row.covered_on_demand_equivalent),
    on_demand_cost: centsText(row.on_demand_cost),
    coverage_percent: percentOf(row.covered_on_demand_equivalent, new Decimal(row.covered_on_demand_equivalent).plus(row.on_demand_cost)),
  });
  return {
    group_by: query.group_by,
    rows: rows.filter((row) => row.grouped === 0).map((row) => ({ ...figures(row), group: orNull(row.grp) })),
    totals: rows.filter((row) => row.grouped === 1).map(figures),
  };
}

/** The ledger scope of a rate: its provider, category and region ('' for any); its family is a separate series (findFamilySeries). */
const scopeOf = (rate: CommitmentRate): SeriesScope => ({ provider: rate.provider, serviceCategory: rate.service_category ?? "", region: rate.region ?? "" });
const scopeKey = (scope: SeriesScope) => JSON.stringify([scope.provider, scope.serviceCategory, scope.region]);
const familyKey = (rate: CommitmentRate) =>
  JSON.stringify([rate.provider.toLowerCase(), rate.service_category ?? "", rate.region ?? "", rate.family?.toLowerCase()]);

/** Lets the event loop run (other requests, /healthz) between rates. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Eligible usage that ends longer ago than this before now: the recommendation warns `stale_data`. */
const STALE_AFTER_MS = 3 * 24 * HOUR_MS;

/**
 * One purchase recommendation per matching commitment rate of the organization's pricing account
 * (read from the pricing API; an account holds at most 100). The lookback ends at the end of the
 * last hour with eligible on-demand usage of the rates' providers (bills arrive late; now at the
 * latest) and spans lookback_days x 24 hours; each rate's data_through is its provider's. The series of every rate without a family comes from one statement;
 * a family's series from that family's resources' lines (one statement per family and scope).
 * Each series is sorted once; each rate is then a few operations over it (purchase.ts).
 */
async function recommendCommitments(
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
  const lastHours = await deps.commitments.findLastOnDemandHours(
    deps.sql,
    organizationId,
    new Date(nowHour),
    rates.map((rate) => rate.provider),
  );
  // Each provider's data ends at its own last hour (its rates' data_through); the lookback ends at the latest of them.
  const through = new Map([...lastHours].map(([provider, last]) => [provider, last === null ? null : last.getTime() + HOUR_MS]));
  const latest = Math.max(...[...through.values()].map((ms) => ms ?? Number.NEGATIVE_INFINITY));
  const end = Number.isFinite(latest) ? latest : Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const hours = query.lookback_days * 24;
  const start = end - hours * HOUR_MS;
  const windowOf = (rate: CommitmentRate): Window => {
    const dataThrough = through.get(rate.provider.toLowerCase()) ?? null;
    return { start, end, hours, dataThrough, stale: dataThrough === null || now.getTime() - dataThrough > STALE_AFTER_MS };
  };

  const scopes = new Map<string, SeriesScope>();
  for (const rate of rates) if (rate.family === null) scopes.set(scopeKey(scopeOf(rate)), scopeOf(rate));
  const scopeList = [...scopes.values()];
  const rows = scopeList.length === 0 ? [] : await deps.commitments.findOnDemandSeries(deps.sql, organizationId, new Date(start), new Date(end), scopeList);
  // Rows come in scope order; a scope naming the same series as an earlier one (its provider
  // written in another case) carries no series and shares that one's.
  const sortedOf = new Map<number, SortedSeries>();
  const series = new Map<string, SortedSeries>();
  let none: SortedSeries | undefined;
  const sortedFrom = (at: readonly string[], costs: readonly string[]) => {
    if (costs.length > 0) return sortSeries(hourlySeries(at, costs, hours));
    none ??= sortSeries(hourlySeries([], [], hours));
    return none;
  };
  for (const row of rows) {
    let sorted = sortedOf.get(row.same_as);
    if (sorted === undefined) {
      sorted = sortedFrom(row.hours ?? [], row.costs ?? []);
      sortedOf.set(row.scope, sorted);
      await yieldToEventLoop();
    }
    series.set(scopeKey(scopeList[row.scope - 1] as SeriesScope), sorted);
  }
  const families = new Map<string, SortedSeries>();
  for (const rate of rates) {
    if (rate.family === null || families.has(familyKey(rate))) continue;
    const found = await deps.commitments.findFamilySeries(deps.sql, organizationId, new Date(start), new Date(end), scopeOf(rate), rate.family);
    families.set(familyKey(rate), sortedFrom(found.hours, found.costs));
    await yieldToEventLoop();
  }

  const items: CommitmentRecommendation[] = [];
  for (const rate of rates) {
    const sorted = (rate.family === null ? series.get(scopeKey(scopeOf(rate))) : families.get(familyKey(rate))) as SortedSeries;
    items.push(recommend(rate, sorted, windowOf(rate), query.include_curve ?? false));
    if (items.length % 10 === 0) await yieldToEventLoop();
  }
  return { items };
}

interface Window {
  start: number;
  end: number;
  hours: number;
  /** The end of the last hour with eligible on-demand usage of the rate's provider (ms), null when there is none. */
  dataThrough: number | null;
  stale: boolean;
}

/** Hours paid up front for each payment option: all of the term, half of it, none. */
const UPFRONT_SHARE = { all_upfront: new Decimal(1), partial_upfront: new Decimal("0.5"), no_upfront: new Decimal(0) } as const;

function recommend(rate: CommitmentRate, series: SortedSeries, window: Window, withCurve: boolean): CommitmentRecommendation {
  const best = bestCommitment(series, rate.discount_percent);
  const monthly = (savings: Decimal) => centsText(savings.times(HOURS_PER_MONTH).dividedBy(window.hours));
  const percent = (ratio: Decimal | null) => (ratio === null ? null : ratio.times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
  const c = best.commitment;
  const buys = !c.isZero();
  const monthlySavings = buys ? monthly(best.savings) : "0.00";
  const monthlyCommitment = centsText(c.times(HOURS_PER_MONTH));
  return {
    rate_id: rate.id,
    commitment_type: rate.commitment_type,
    term_months: rate.term_months,
    payment_option: rate.payment_option,
    discount_percent: rate.discount_percent,
    family: rate.family,
    hourly_commitment: centsText(c),
    monthly_savings: monthlySavings,
    ...(buys ? {} : { reason: "no_savings" as const }),
    break_even_utilization_percent: new Decimal(100).minus(rate.discount_percent).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
    upfront_cost: centsText(c.times(rate.term_months * HOURS_PER_MONTH).times(UPFRONT_SHARE[rate.payment_option])),
    monthly_commitment_cost: monthlyCommitment,
    roi_percent: buys ? percentOf(monthlySavings, monthlyCommitment) : null,
    hours_above_break_even_percent: percent(hoursAboveBreakEven(series, rate.discount_percent, c)),
    expected_utilization_percent: percent(best.utilization),
    expected_coverage_percent: percent(best.coverage),
    lookback: {
      start: new Date(window.start).toISOString(),
      end: new Date(window.end).toISOString(),
      hours: window.hours,
      data_through: window.dataThrough === null ? null : new Date(window.dataThrough).toISOString(),
    },
    warnings: window.stale ? ["stale_data"] : [],
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
