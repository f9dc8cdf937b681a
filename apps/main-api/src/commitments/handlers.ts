import type { mainApiCommitmentRoutes } from "@cloudcost/contracts";
import { HttpError } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { PricingUnavailableError } from "../pricing/internal-client";
import { commitmentRepository } from "./repository";
import { createCommitmentService } from "./service";

/** Commitments (docs/api.md, "Commitments"): utilization, coverage and purchase recommendations of an organization. */
export function commitmentHandlers(deps: Pick<AppDeps, "db" | "pricingApi" | "clock">): Handlers<keyof typeof mainApiCommitmentRoutes> {
  const commitments = createCommitmentService({ sql: deps.db.sql, commitments: commitmentRepository, pricingApi: deps.pricingApi, clock: deps.clock });
  return {
    listCommitments: async ({ query }, ctx) => {
      const report = await commitments.listCommitments(ctx, query);
      return ok(`${report.items.length} commitments`, report);
    },
    getCommitmentCoverage: async ({ query }, ctx) => ok(`Coverage by ${query.group_by}`, await commitments.commitmentCoverage(ctx, query)),
    getCommitmentRecommendations: async ({ query }, ctx) => {
      try {
        const result = await commitments.recommendCommitments(ctx, query);
        return ok(`${result.items.length} recommendations`, result);
      } catch (err) {
        if (!(err instanceof PricingUnavailableError)) throw err;
        throw new HttpError("pricing_unavailable", "The pricing API is unavailable, so the commitment rates could not be read; retry shortly.", undefined, {
          "Retry-After": "5",
        });
      }
    },
  };
}
