import { Decimal } from "@cloudcost/decimal";
import { CustomerId } from "@cloudcost/contracts";
import type { RecommendationSummary, RecommendationsPage, RecommendationsQuery, SummaryQuery } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import { decodeCursor, encodeCursor } from "../http/pagination";
import type { TenantRef } from "../context";
import type { RecommendationRepository, RecommendationRow, SummaryRows } from "./recommendation-repository";

const ACTION_KEYS = {
  DOWNSIZE: "downsize",
  UPSIZE: "upsize",
  TERMINATE: "terminate",
  NOOP: "noop",
  NO_RECOMMENDATION: "no_recommendation",
} as const;

/** The summary from its rows: the counts and savings per action, and the top ten savers. */
function summaryOf({ groups, top }: SummaryRows): RecommendationSummary {
  const counts = { downsize: 0, upsize: 0, terminate: 0, noop: 0, no_recommendation: 0, pending: 0 };
  let cents = new Decimal(0);
  for (const group of groups) {
    if (group.action === null) {
      counts.pending = group.n;
      continue;
    }
    counts[ACTION_KEYS[group.action]] = group.n;
    if (group.action === "DOWNSIZE" || group.action === "UPSIZE" || group.action === "TERMINATE") cents = cents.plus(group.cents ?? 0);
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const analyzed = total - counts.pending;
  return {
    total_resources: total,
    analyzed_resources: analyzed,
    analysis_coverage: total === 0 ? 0 : analyzed / total,
    action_counts: counts,
    actionable_count: counts.downsize + counts.upsize + counts.terminate,
    potential_savings_monthly_usd: cents.dividedBy(100).toNumber(),
    potential_savings_annual_usd: cents.times(12).dividedBy(100).toNumber(),
    top_savers: top.map((row) => ({
      resource_id: row.resource_id,
      name: row.name,
      resource_type: row.resource_type,
      current_instance_type: row.current_instance_type,
      recommended_instance_type: row.recommended_instance_type,
      savings_monthly_usd: new Decimal(row.savings).toNumber(),
    })),
  };
}

const money = (value: string | null) => (value === null ? null : new Decimal(value).toNumber());

/** A page of the list: `query.limit` of the rows (one more tells there is a next page). */
function pageOf(rows: RecommendationRow[], query: RecommendationsQuery): RecommendationsPage {
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(({ cpu_p95, cpu_max, memory_p95, sample_count, window_start, window_end, ...row }) => ({
      ...row,
      current_monthly_cost_usd: money(row.current_monthly_cost_usd),
      recommended_monthly_cost_usd: money(row.recommended_monthly_cost_usd),
      savings_monthly_usd: money(row.savings_monthly_usd),
      stats:
        row.action !== null && sample_count && cpu_p95 !== null && cpu_max !== null && window_start && window_end
          ? { cpu_p95, cpu_max, memory_p95, samples: sample_count, window_start, window_end }
          : null,
      finding_reasons: row.action === null ? [] : (row.finding_reasons ?? []),
      options: row.action === null ? [] : (row.options ?? []),
    })),
    next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1].resource_id) : null,
  };
}

export interface RecommendationServiceDeps {
  prisma: Prisma;
  recommendations: RecommendationRepository;
}

export type RecommendationService = ReturnType<typeof createRecommendationService>;

/** The recommendations of one tenant as clients read them. */
export function createRecommendationService({ prisma, recommendations }: RecommendationServiceDeps) {
  return {
    /** Counts and savings per action, and the top ten savers, of the resources matching the filters. */
    async recommendationSummary(tenant: TenantRef, query: SummaryQuery): Promise<RecommendationSummary> {
      return summaryOf(await recommendations.findSummary(prisma, tenant, query));
    },
    /** A page of per-resource results in resource_id byte order (keyset pagination). */
    async listRecommendations(tenant: TenantRef, query: RecommendationsQuery): Promise<RecommendationsPage> {
      const after = decodeCursor(query.cursor, CustomerId);
      return pageOf(await recommendations.findRecommendationRows(prisma, tenant, query, after), query);
    },
  };
}
