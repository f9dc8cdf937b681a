import type { OrganizationContext } from "../context";
import type { mainApiSpendRoutes } from "@cloudcost/contracts";
import { HttpError, releaseBody } from "@cloudcost/http";
import { isManager } from "../auth/principal";
import { checkBudgetsAfterSpend } from "../budgets/after-spend";
import { budgetServiceOver } from "../budgets/service";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { PricingUnavailableError } from "../pricing/internal-client";
import { loadOrganizationSettings } from "../settings/repository";
import { createExportService } from "./export-service";
import { forecastRepository } from "./forecast/repository";
import { createForecastService } from "./forecast/service";
import { lineReadRepository } from "./line-reads-repository";
import { listSpendLines } from "./lines";
import { spendLinesRepository } from "./lines-repository";
import { spendReport } from "./dimension-query";
import type { SpendScope } from "./query";
import { spendReadsOver } from "./spend-reads";
import { usageRepository } from "./usage-repository";
import { createUsageService } from "./usage-service";

/** Nothing was stored: the client may retry shortly. */
async function pricing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof PricingUnavailableError)) throw err;
    throw new HttpError("pricing_unavailable", "The pricing API is unavailable, so no usage was priced and nothing was stored; retry shortly.", undefined, {
      "Retry-After": "5",
    });
  }
}

/** Spend operations (docs/api.md, "Spend: usage, queries, lines, export"); authorize selected the tenant of tenant-scoped ones. */
export function spendHandlers(deps: Pick<AppDeps, "prisma" | "db" | "pricingApi" | "outbox" | "logger" | "clock">): Handlers<keyof typeof mainApiSpendRoutes> {
  const usage = createUsageService({
    prisma: deps.prisma,
    db: deps.db,
    pricingApi: deps.pricingApi,
    lines: spendLinesRepository,
    usage: usageRepository,
  });
  const reads = spendReadsOver(deps.db.sql);
  const forecasts = createForecastService({ reads, prisma: deps.prisma, forecasts: forecastRepository });
  // Usage that is stored or repriced is checked against the tenant's budgets.
  const after = { ...deps, budgets: budgetServiceOver(deps.prisma) };
  const exports = createExportService({
    sql: deps.db.sql,
    lineReads: lineReadRepository,
    dimensionSpend: reads.dimensionSpend,
    metricAmounts: reads.metricAmounts,
    defaultCurrency: async (organizationId) => (await loadOrganizationSettings(deps.prisma, organizationId)).default_currency,
  });
  return {
    ingestUsage: async (input, { tenant }) => {
      const lines = input.body.usage;
      releaseBody(input);
      const result = await pricing(() => usage.ingestUsage(tenant, lines));
      if (result.accepted > 0) await checkBudgetsAfterSpend(after, tenant.organizationId, [tenant.id]);
      return ok(`Stored ${result.accepted} usage lines (${result.duplicates} already sent)`, result);
    },
    repriceUsage: async ({ body }, { tenant }) => {
      const result = await pricing(() => usage.repriceUsage(tenant, body));
      if (result.repriced > 0) await checkBudgetsAfterSpend(after, tenant.organizationId, [tenant.id]);
      return ok(`Priced ${result.repriced} lines; ${result.still_unpriced} still unpriced`, result);
    },
    getSpendForecast: async ({ query }, { tenant }) => ok("Forecast of the tenant's spend", await forecasts.forecastSpend(tenant, query, deps.clock())),
    getTenantSpend: async ({ query }, { tenant }) =>
      ok("Spend of the tenant", await spendReport(reads, { organizationId: tenant.organizationId, tenantIds: [tenant.id] }, query)),
    listSpendLines: async ({ query }, { tenant }) => {
      const page = await listSpendLines(lineReadRepository, deps.db.sql, { organizationId: tenant.organizationId, tenantIds: [tenant.id] }, query);
      return ok(`${page.items.length} spend lines`, page);
    },
    getOrganizationSpend: async ({ query }, ctx) => ok("Spend of the organization", await spendReport(reads, organizationScope(ctx), query)),
    exportTenantSpend: ({ query }, { tenant }) =>
      exports.exportSpend({ organizationId: tenant.organizationId, tenantIds: [tenant.id] }, query, `spend-${tenant.id}`),
    exportOrganizationSpend: ({ query }, ctx) => exports.exportSpend(organizationScope(ctx), query, `spend-${ctx.organization.id}`),
  };
}

/** Owners and admins: every tenant and the unallocated lines; members and viewers: their tenants. */
function organizationScope({ principal: caller, organization: { id: organizationId } }: OrganizationContext): SpendScope {
  return { organizationId, tenantIds: isManager(caller.role) ? null : caller.tenantIds };
}
