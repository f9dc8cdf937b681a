import type { SpendAllocation } from "@cloudcost/contracts";
import { badRequest, type StreamReply } from "@cloudcost/http";
import type { SqlClient } from "@cloudcost/db";
import { focusCsv } from "./focus";
import type { MetricAmountsRepository } from "../business-metrics/amounts-repository";
import type { DimensionSpendRepository } from "./dimension-spend-repository";
import { allocateExportLines } from "./export-allocation";
import type { LineReadRepository, SpendLinesFilter } from "./line-reads-repository";
import { exportLines } from "./lines";
import type { SpendScope } from "./query";

const UNSPECIFIED_PROVIDER = "Unspecified";

export interface ExportServiceDeps {
  /** The lines are read with it (lines.ts, export-allocation.ts). */
  sql: SqlClient;
  /** The lines and their unpriced count. */
  lineReads: LineReadRepository;
  /** The dimensions an export names, and the day costs a split shares by. */
  dimensionSpend: DimensionSpendRepository;
  /** The business metrics a `metric` split shares by. */
  metricAmounts: MetricAmountsRepository;
  /** The organization's default currency (written for lines without a currency). */
  defaultCurrency: (organizationId: string) => Promise<string>;
}

export type ExportService = ReturnType<typeof createExportService>;

/** The FOCUS export of a scope's lines. */
export function createExportService(deps: ExportServiceDeps) {
  const { sql, lineReads, dimensionSpend, metricAmounts } = deps;

  /**
   * The scope's lines as a FOCUS 1.2 CSV stream. FOCUS forbids null costs, so unpriced usage lines
   * are left out unless asked for (then with zero costs and x_Priced false); X-Unpriced-Lines says
   * how many the range holds either way. A failure after the first bytes can only cut the response short.
   */
  async function exportSpend(
    scope: SpendScope,
    query: SpendLinesFilter & { include_unpriced: boolean; dimensions?: string[]; allocation?: SpendAllocation },
    name: string,
  ): Promise<StreamReply<200>> {
    const keys = query.dimensions ?? [];
    const split = query.allocation === "split";
    if (split && keys.length !== 1)
      throw badRequest("Invalid query: allocation: allocation=split splits by one dimension: name exactly one in dimensions", [
        { path: "allocation", message: "allocation=split needs exactly one of dimensions" },
      ]);
    const { versions, unknown } = keys.length ? await dimensionSpend.readVersionsOf(sql, scope.organizationId, keys) : { versions: [], unknown: [] };
    if (unknown.length)
      throw badRequest(`Invalid query: dimensions: no dimension ${unknown.join(", ")} in this organization`, [
        { path: "dimensions", message: `no dimension ${unknown.join(", ")} in this organization` },
      ]);
    const fallbackCurrency = await deps.defaultCurrency(scope.organizationId);
    const unpriced = await lineReads.countUnpricedLines(sql, scope, query);
    const stored = exportLines(lineReads, sql, scope, query, { fallbackCurrency, includeUnpriced: query.include_unpriced });
    const lines = keys.length
      ? allocateExportLines({ sql, dimensionSpend, metricAmounts }, scope.organizationId, stored, versions, keys, split ? keys[0] : null, query)
      : stored;
    return {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}-${query.start.slice(0, 10)}-${query.end.slice(0, 10)}.csv"`,
        "X-Unpriced-Lines": String(unpriced),
      },
      // FOCUS requires a provider and an invoice issuer; usage lines name one only when their labels do.
      stream: focusCsv(lines, { billingAccountId: scope.organizationId, provider: UNSPECIFIED_PROVIDER, dimensionKeys: keys, allocation: split }),
    };
  }

  return { exportSpend };
}
