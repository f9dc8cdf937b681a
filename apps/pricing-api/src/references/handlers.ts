import type { pricingReferenceRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { deletePin, listPins, putPin } from "./pin-service";
import { createReport, deleteReport, getReport } from "./report-service";

/** `/v1/pricing/pins` (which resources carry which pricing id) and `/v1/pricing/reports` (stored, priced usage). */
export function referenceHandlers(deps: { prisma: Prisma; labelPrefix: string }): Handlers<keyof typeof pricingReferenceRoutes> {
  return {
    listPins: async ({ query }, { account }) => ({ status: 200, body: { pins: await listPins(deps.prisma, account.accountId, query.pricing_id) } }),
    putPin: async ({ params, body }, { account }) => ({
      status: 200,
      body: await putPin(deps.prisma, account.accountId, params.kind, params.resource_id, body.pricing_id),
    }),
    deletePin: async ({ params }, { account }) => {
      await deletePin(deps.prisma, account.accountId, params.kind, params.resource_id);
      return { status: 204 };
    },
    createReport: async ({ body }, { account }) => ({
      status: 201,
      body: await createReport(deps.prisma, account.accountId, body.name, body.usage, deps.labelPrefix),
    }),
    getReport: async ({ params }, { account }) => ({ status: 200, body: await getReport(deps.prisma, account.accountId, params.id) }),
    deleteReport: async ({ params }, { account }) => {
      await deleteReport(deps.prisma, account.accountId, params.id);
      return { status: 204 };
    },
  };
}
