import Decimal from "decimal.js";
import { CustomerId } from "@cloudcost/contracts";
import type { RecommendationItem, RecommendationSummary, RecommendationsPage, RecommendationsQuery, SummaryQuery } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import { decodeCursor, encodeCursor } from "../http/pagination";
import type { TenantRef } from "../context";
import { DEFAULT_COMPUTE_SETTINGS } from "./settings";

const ARRAY_FILTERS = [
  ["provider", "provider"],
  ["region", "region"],
  ["availability_zone", "availability_zone"],
  ["instance_type", "instance_type"],
  ["architecture", "architecture"],
  ["operating_system", "operating_system"],
] as const;

const ACTIONABLE = `('DOWNSIZE', 'UPSIZE', 'TERMINATE')`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The oldest heartbeat that still counts as active, read by the statement that needs it: the
 * `active` filter and column cost no settings round trip. A scalar subquery, so it is computed once
 * per statement (an initplan) rather than once per row as a bare expression of now() would be.
 * $n is the organization id.
 */
const activeSince = (n: number) =>
  `(SELECT now() - make_interval(mins => COALESCE((SELECT active_window_minutes FROM organization_settings WHERE organization_id = $${n}), ${DEFAULT_COMPUTE_SETTINGS.activeWindowMinutes})))`;

/** WHERE clause of the summary filters; every query is scoped by tenant first. */
function filters(tenant: TenantRef, query: SummaryQuery) {
  const params: unknown[] = [tenant.id, query.resource_type];
  const conditions = ["tenant_id = $1", "resource_type = $2"];
  for (const [field, column] of ARRAY_FILTERS) {
    const values = query[field];
    if (values?.length) {
      params.push(values);
      conditions.push(`${column} = ANY($${params.length}::text[])`);
    }
  }
  if (query.active !== undefined) {
    params.push(tenant.organizationId);
    const fresh = `last_heartbeat_at > ${activeSince(params.length)}`;
    conditions.push(query.active ? fresh : `(last_heartbeat_at IS NULL OR NOT (${fresh}))`);
  }
  return { params, where: conditions.join(" AND ") };
}

interface CountsRow {
  action: "DOWNSIZE" | "UPSIZE" | "TERMINATE" | "NOOP" | "NO_RECOMMENDATION" | null;
  n: number;
  cents: string | null;
}

interface TopRow {
  resource_id: string;
  name: string;
  resource_type: "virtual_machine" | "kubernetes_node";
  current_instance_type: string;
  recommended_instance_type: string;
  savings: string;
}

const ACTION_KEYS = {
  DOWNSIZE: "downsize",
  UPSIZE: "upsize",
  TERMINATE: "terminate",
  NOOP: "noop",
  NO_RECOMMENDATION: "no_recommendation",
} as const;

/**
 * One statement over narrow covering indexes, nothing per resource in Node:
 * - counts and savings: an index-only scan of manual_compute_resources_summary_idx grouped by
 *   action (at most six rows), savings summed as integer cents (savings_cents, generated);
 * - top ten: the first ten qualifying entries of the partial index
 *   manual_compute_resources_top_savers_cover_idx (filters checked on the index tuple), then the
 *   display columns of just those ten rows.
 * Both come back as JSON arrays in one row: one round trip and one connection per summary (two
 * statements on two connections at once cost a second wake-up of the database and of this process).
 * The `active` filter is the exception to index-only: the heartbeat is kept out of the indexes (so
 * that bumping it is a HOT update), and is read from the table rows, whose leading columns are the
 * ones read here (migration 20261125050000_compute_resources_layout).
 */
export async function recommendationSummary(prisma: Prisma, tenant: TenantRef, query: SummaryQuery): Promise<RecommendationSummary> {
  const { params, where } = filters(tenant, query);
  // The plans rely on the session settings of db.ts (SSD costs: the covering indexes win).
  const [{ groups, top }] = await prisma.$queryRawUnsafe<{ groups: CountsRow[]; top: TopRow[] }[]>(
    `WITH groups AS (
       SELECT action, count(*)::int AS n, sum(savings_cents)::text AS cents
       FROM compute_resources WHERE ${where} GROUP BY action),
     top AS (
       SELECT resource_id, savings_monthly_usd FROM compute_resources
       WHERE ${where} AND action IN ${ACTIONABLE} AND savings_monthly_usd > 0
       ORDER BY savings_monthly_usd DESC, resource_id COLLATE "C"
       LIMIT 10),
     shown AS (
       SELECT r.resource_id, COALESCE(r.name, r.resource_id) AS name, r.resource_type, r.current_instance_type,
         r.recommended_instance_type, r.savings_monthly_usd::text AS savings, top.savings_monthly_usd AS rank
       FROM top JOIN compute_resources r ON r.tenant_id = $1 AND r.resource_id = top.resource_id)
     SELECT (SELECT COALESCE(json_agg(g), '[]') FROM groups g) AS groups,
       (SELECT COALESCE(json_agg(s ORDER BY s.rank DESC, s.resource_id COLLATE "C"), '[]') FROM shown s) AS top`,
    ...params,
  );
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

type ItemRow = Omit<
  RecommendationItem,
  "current_monthly_cost_usd" | "recommended_monthly_cost_usd" | "savings_monthly_usd" | "stats" | "finding_reasons" | "options"
> & {
  finding_reasons: RecommendationItem["finding_reasons"] | null;
  options: RecommendationItem["options"] | null;
  current_monthly_cost_usd: string | null;
  recommended_monthly_cost_usd: string | null;
  savings_monthly_usd: string | null;
  cpu_p95: number | null;
  cpu_max: number | null;
  memory_p95: number | null;
  sample_count: number | null;
  window_start: string | null;
  window_end: string | null;
};

const money = (value: string | null) => (value === null ? null : new Decimal(value).toNumber());

/** A page of per-resource results in resource_id byte order (keyset pagination). */
export async function listRecommendations(prisma: Prisma, tenant: TenantRef, query: RecommendationsQuery): Promise<RecommendationsPage> {
  const after = decodeCursor(query.cursor, CustomerId);
  const { params, where } = filters(tenant, query);
  const conditions = [where];
  if (query.action?.length) {
    const actions = query.action.filter((a) => a !== "PENDING");
    params.push(actions);
    conditions.push(`(action = ANY($${params.length}::text[])${query.action.includes("PENDING") ? " OR action IS NULL" : ""})`);
  }
  if (after !== undefined) {
    params.push(after);
    conditions.push(`resource_id COLLATE "C" > $${params.length}`);
  }
  params.push(tenant.organizationId, query.limit + 1);
  const rows = await prisma.$queryRawUnsafe<ItemRow[]>(
    `SELECT resource_id, name, resource_type, provider, region, availability_zone, instance_type, architecture,
       operating_system, cpu_cores, ram_gb, labels, purchase_option,
       COALESCE(last_heartbeat_at > ${activeSince(params.length - 1)}, false) AS active,
       action, current_instance_type, recommended_instance_type,
       current_monthly_cost_usd::text AS current_monthly_cost_usd,
       recommended_monthly_cost_usd::text AS recommended_monthly_cost_usd,
       savings_monthly_usd::text AS savings_monthly_usd,
       cpu_p95, cpu_max, memory_p95, sample_count, ${iso("window_start")} AS window_start, ${iso("window_end")} AS window_end,
       finding_reasons, options, CASE WHEN action IS NULL THEN NULL ELSE price END AS price,
       ${iso("analyzed_at")} AS analyzed_at
     FROM compute_resources WHERE ${conditions.join(" AND ")}
     ORDER BY resource_id COLLATE "C" LIMIT $${params.length}`,
    ...params,
  );
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
