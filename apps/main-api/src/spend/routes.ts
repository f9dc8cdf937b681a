import type { Request, Response } from "express";
import type { mainApiSpendRoutes } from "@cloudcost/contracts";
import { HttpError, releaseBody } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import { isManager } from "../auth/principal";
import { checkBudgetsAfterSpend } from "../budgets/after-spend";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { assertMember } from "../organizations/access";
import { PricingUnavailableError } from "../pricing/internal-client";
import { pipeline } from "node:stream/promises";
import { loadOrganizationSettings } from "../settings/repository";
import { focusCsv } from "./focus";
import { exportLines, listSpendLines, type SpendLinesFilter } from "./lines";
import { querySpend, type SpendScope } from "./query";
import { ingestUsage, repriceUsage, type TenantRef } from "./usage-service";

const tenantOf = (req: Request): TenantRef => {
  if (!req.tenant) throw new Error("requireTenant did not run before a spend handler");
  return { id: req.tenant.id, organizationId: req.tenant.organizationId };
};

/** Nothing was stored: the client may retry shortly. */
async function pricing<T>(res: Response, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof PricingUnavailableError)) throw err;
    res.setHeader("Retry-After", "5");
    throw new HttpError("pricing_unavailable", "The pricing API is unavailable, so no usage was priced and nothing was stored; retry shortly.");
  }
}

/** Spend operations (docs/api.md, "Spend: usage, queries, lines, export"); tenant-scoped ones behind requireTenant. */
export function spendHandlers(deps: Pick<AppDeps, "prisma" | "db" | "pricingApi" | "outbox" | "logger">): Handlers<keyof typeof mainApiSpendRoutes> {
  return {
    ingestUsage: async (input, req, res) => {
      const usage = input.body.usage;
      releaseBody(input, req);
      const tenant = tenantOf(req);
      const result = await pricing(res, () => ingestUsage(deps, tenant, usage));
      if (result.accepted > 0) await checkBudgetsAfterSpend(deps, tenant.organizationId, [tenant.id]);
      return ok(`Stored ${result.accepted} usage lines (${result.duplicates} already sent)`, result);
    },
    repriceUsage: async ({ body }, req, res) => {
      const tenant = tenantOf(req);
      const result = await pricing(res, () => repriceUsage(deps, tenant, body));
      if (result.repriced > 0) await checkBudgetsAfterSpend(deps, tenant.organizationId, [tenant.id]);
      return ok(`Priced ${result.repriced} lines; ${result.still_unpriced} still unpriced`, result);
    },
    getTenantSpend: async ({ query }, req) => {
      const tenant = tenantOf(req);
      return ok("Spend of the tenant", await querySpend(deps.db.sql, { organizationId: tenant.organizationId, tenantIds: [tenant.id] }, query));
    },
    listSpendLines: async ({ query }, req) => {
      const tenant = tenantOf(req);
      const page = await listSpendLines(deps.db.sql, { organizationId: tenant.organizationId, tenantIds: [tenant.id] }, query);
      return ok(`${page.items.length} spend lines`, page);
    },
    getOrganizationSpend: async ({ params, query }, req) => {
      return ok("Spend of the organization", await querySpend(deps.db.sql, organizationScope(req, params.org_id), query));
    },
    exportTenantSpend: async ({ query }, req, res) => {
      const tenant = tenantOf(req);
      await streamExport(deps, res, { organizationId: tenant.organizationId, tenantIds: [tenant.id] }, query, `spend-${tenant.id}`);
    },
    exportOrganizationSpend: async ({ params, query }, req, res) => {
      await streamExport(deps, res, organizationScope(req, params.org_id), query, `spend-${params.org_id}`);
    },
  };
}

/** Owners and admins: every tenant and the unallocated lines; members and viewers: their tenants. */
function organizationScope(req: Request, organizationId: string): SpendScope {
  const caller = principalOf(req);
  assertMember(caller, organizationId);
  return { organizationId, tenantIds: isManager(caller.role) ? null : caller.tenantIds };
}

/** Streams the lines as FOCUS 1.2 CSV; a failure after the first bytes can only cut the response short. */
async function streamExport(deps: Pick<AppDeps, "db" | "prisma">, res: Response, scope: SpendScope, range: SpendLinesFilter, name: string): Promise<void> {
  const settings = await loadOrganizationSettings(deps.prisma, scope.organizationId);
  res.status(200);
  res.setHeader("Content-Type", "text/csv; charset=utf-8");
  res.setHeader("Content-Disposition", `attachment; filename="${name}-${range.start.slice(0, 10)}-${range.end.slice(0, 10)}.csv"`);
  const csv = focusCsv(exportLines(deps.db.sql, scope, range, settings.default_currency), { billingAccountId: scope.organizationId });
  await pipeline(csv, res);
}
