import { accountOf } from "../auth/middleware";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { deletePin, listPins, putPin } from "./pin-service";
import { createReport, deleteReport, getReport } from "./report-service";

/** `/v1/pricing/pins`: which resources carry which pricing id. */
export function pinHandlers(deps: { prisma: Prisma }): Handlers<"listPins" | "putPin" | "deletePin"> {
  return {
    listPins: async ({ query }, req) => ({ status: 200, body: { pins: await listPins(deps.prisma, accountOf(req), query.pricing_id) } }),
    putPin: async ({ params, body }, req) => ({
      status: 200,
      body: await putPin(deps.prisma, accountOf(req), params.kind, params.resource_id, body.pricing_id),
    }),
    deletePin: async ({ params }, req) => {
      await deletePin(deps.prisma, accountOf(req), params.kind, params.resource_id);
      return { status: 204 };
    },
  };
}

/** `/v1/pricing/reports`: stored, priced usage. */
export function reportHandlers(deps: { prisma: Prisma; labelPrefix: string }): Handlers<"createReport" | "getReport" | "deleteReport"> {
  return {
    createReport: async ({ body }, req) => ({
      status: 201,
      body: await createReport(deps.prisma, accountOf(req), body.name, body.usage, deps.labelPrefix),
    }),
    getReport: async ({ params }, req) => ({ status: 200, body: await getReport(deps.prisma, accountOf(req), params.id) }),
    deleteReport: async ({ params }, req) => {
      await deleteReport(deps.prisma, accountOf(req), params.id);
      return { status: 204 };
    },
  };
}
