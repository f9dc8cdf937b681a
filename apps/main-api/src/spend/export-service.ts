import type { StreamReply } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { loadOrganizationSettings } from "../settings/repository";
import { focusCsv } from "./focus";
import { countUnpricedLines, exportLines, type SpendLinesFilter } from "./lines";
import type { SpendScope } from "./query";

const UNSPECIFIED_PROVIDER = "Unspecified";

/**
 * The scope's lines as a FOCUS 1.2 CSV stream. FOCUS forbids null costs, so unpriced usage lines
 * are left out unless asked for (then with zero costs and x_Priced false); X-Unpriced-Lines says
 * how many the range holds either way. A failure after the first bytes can only cut the response short.
 */
export async function exportSpend(
  deps: Pick<AppDeps, "db" | "prisma">,
  scope: SpendScope,
  query: SpendLinesFilter & { include_unpriced: boolean },
  name: string,
): Promise<StreamReply<200>> {
  const settings = await loadOrganizationSettings(deps.prisma, scope.organizationId);
  const unpriced = await countUnpricedLines(deps.db.sql, scope, query);
  const lines = exportLines(deps.db.sql, scope, query, { fallbackCurrency: settings.default_currency, includeUnpriced: query.include_unpriced });
  return {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${query.start.slice(0, 10)}-${query.end.slice(0, 10)}.csv"`,
      "X-Unpriced-Lines": String(unpriced),
    },
    // FOCUS requires a provider and an invoice issuer; usage lines name one only when their labels do.
    stream: focusCsv(lines, { billingAccountId: scope.organizationId, provider: UNSPECIFIED_PROVIDER }),
  };
}
