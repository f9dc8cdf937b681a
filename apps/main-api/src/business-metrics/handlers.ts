import { METRIC_CSV_MAX_BYTES, type MetricValueInput, type MetricValuesMode, type mainApiBusinessMetricRoutes } from "@cloudcost/contracts";
import { badRequest, deferredIdempotencyOf, replayHeaders } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { parseMetricCsv, receiveBody } from "./csv";
import { businessMetricRepository } from "./repository";
import { createBusinessMetricService } from "./service";

/** `/api/v1/organizations/{org_id}/business-metrics`: every role reads, owners and admins write (authorize checks the table's roles). */
export function businessMetricHandlers(deps: Pick<AppDeps, "prisma" | "clock">): Handlers<keyof typeof mainApiBusinessMetricRoutes> {
  const metrics = createBusinessMetricService({ prisma: deps.prisma, metrics: businessMetricRepository, clock: deps.clock });
  return {
    putBusinessMetric: async ({ params, body }, ctx) => success(`Business metric ${params.name} saved.`, await metrics.putMetric(ctx, params.name, body)),
    listBusinessMetrics: async (_input, ctx) => success("Business metrics of the organization.", await metrics.listMetrics(ctx)),
    getBusinessMetric: async ({ params }, ctx) => success(`Business metric ${params.name}.`, await metrics.getMetric(ctx, params.name)),
    deleteBusinessMetric: async ({ params }, ctx) => {
      await metrics.deleteMetric(ctx, params.name);
      return { status: 204 };
    },
    postBusinessMetricValues: async ({ params, query, body }, ctx) => {
      let mode: MetricValuesMode;
      let values: MetricValueInput[];
      if (body !== undefined) {
        // JSON: parsed and fingerprinted (Idempotency-Key) before the handler.
        if (body.mode !== undefined && query.mode !== undefined && body.mode !== query.mode)
          throw badRequest(`Invalid query: mode: the body's mode is ${body.mode}; leave mode out of the query or make it the same`, [
            { path: "mode", message: `differs from the body's mode ${body.mode}` },
          ]);
        mode = body.mode ?? query.mode ?? "sum";
        values = body.values;
      } else {
        const csv = parseMetricCsv(await receiveBody(ctx.body, METRIC_CSV_MAX_BYTES));
        // With an Idempotency-Key, the key is claimed now that the body's digest is known.
        const replay = await deferredIdempotencyOf(ctx.body.stream)?.claim(csv.digest);
        if (replay) return { status: replay.status as 200, headers: replayHeaders(replay), text: replay.body };
        mode = query.mode ?? "sum";
        values = csv.values;
      }
      const posted = await metrics.postValues(ctx, params.name, mode, values);
      return success(`Stored ${posted.stored} amounts of ${params.name} (${mode}).`, posted);
    },
    listBusinessMetricValues: async ({ params, query }, ctx) =>
      success(`Amounts of business metric ${params.name}.`, await metrics.listValues(ctx, params.name, query)),
  };
}
