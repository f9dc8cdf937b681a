import type { mainApiDimensionRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { metricAmountsRepository } from "../business-metrics/amounts-repository";
import { loadOrganizationSettings } from "../settings/repository";
import { dimensionRepository } from "./repository";
import { clearRows } from "./rollup-repository";
import { createDimensionService } from "./service";

/** `/api/v1/organizations/{org_id}/dimensions`: every role reads, owners and admins write (authorize checks the table's roles). */
export function dimensionHandlers(deps: Pick<AppDeps, "prisma" | "db" | "clock" | "dimensionApply">): Handlers<keyof typeof mainApiDimensionRoutes> {
  const dimensions = createDimensionService({
    prisma: deps.prisma,
    dimensions: dimensionRepository,
    rollups: { clearRows },
    sql: deps.db.sql,
    defaultCurrency: async (organizationId) => (await loadOrganizationSettings(deps.prisma, organizationId)).default_currency,
    metricAmounts: (organizationId, names, from, to) => metricAmountsRepository.findMetricAmounts(deps.db.sql, organizationId, names, from, to),
    clock: deps.clock,
  });
  return {
    putDimension: async ({ params, body }, ctx) => {
      const dimension = await dimensions.putDimension(ctx, params.key, body);
      deps.dimensionApply.kick(ctx.organization.id);
      return success(`Dimension ${params.key} saved; its values are being applied to the lines (status processing until then).`, dimension);
    },
    listDimensions: async (_input, ctx) => success("Dimensions of the organization.", await dimensions.listDimensions(ctx)),
    getDimension: async ({ params, query }, ctx) => success(`Dimension ${params.key}.`, await dimensions.getDimension(ctx, params.key, query.version)),
    listDimensionVersions: async ({ params }, ctx) => success(`Versions of dimension ${params.key}.`, await dimensions.listVersions(ctx, params.key)),
    previewDimension: async ({ params, query, body }, ctx) =>
      success(`Preview of dimension ${params.key}; nothing was saved.`, await dimensions.previewDimension(ctx, params.key, body, query)),
    deleteDimension: async ({ params }, ctx) => {
      await dimensions.deleteDimension(ctx, params.key);
      return { status: 204 };
    },
  };
}
