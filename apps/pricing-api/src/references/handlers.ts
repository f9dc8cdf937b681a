import type { pricingReferenceRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { pinRepository } from "./pin-repository";
import { createPinService } from "./pin-service";
import { reportRepository } from "./report-repository";
import { createReportService } from "./report-service";

/** `/v1/pricing/pins` (which resources carry which pricing id) and `/v1/pricing/reports` (stored, priced usage). */
export function referenceHandlers(deps: { prisma: Prisma; labelPrefix: string }): Handlers<keyof typeof pricingReferenceRoutes> {
  const pins = createPinService({ prisma: deps.prisma, pins: pinRepository });
  const reports = createReportService({ prisma: deps.prisma, reports: reportRepository });
  return {
    listPins: async ({ query }, { account }) => ({ status: 200, body: { pins: await pins.listPins(account.accountId, query.pricing_id) } }),
    putPin: async ({ params, body }, { account }) => ({
      status: 200,
      body: await pins.putPin(account.accountId, params.kind, params.resource_id, body.pricing_id),
    }),
    deletePin: async ({ params }, { account }) => {
      await pins.deletePin(account.accountId, params.kind, params.resource_id);
      return { status: 204 };
    },
    createReport: async ({ body }, { account }) => ({
      status: 201,
      body: await reports.createReport(account.accountId, body.name, body.usage, deps.labelPrefix),
    }),
    getReport: async ({ params }, { account }) => ({ status: 200, body: await reports.getReport(account.accountId, params.id) }),
    deleteReport: async ({ params }, { account }) => {
      await reports.deleteReport(account.accountId, params.id);
      return { status: 204 };
    },
  };
}
