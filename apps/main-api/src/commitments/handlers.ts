import type { mainApiCommitmentRoutes } from "@cloudcost/contracts";
import { HttpError } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { PricingUnavailableError } from "../pricing/internal-client";
import { commitmentCoverage, listCommitments, recommendCommitments } from "./service";

/** Commitments (docs/api.md, "Commitments"): utilization, coverage and purchase recommendations of an organization. */
export function commitmentHandlers(deps: Pick<AppDeps, "db" | "pricingApi" | "clock">): Handlers<keyof typeof mainApiCommitmentRoutes> {
  return {
    listCommitments: async ({ query }, ctx) => {
      const report = await listCommitments(deps, ctx, query);
      return ok(`${report.items.length} commitments`, report);
    },
    getCommitmentCoverage: async ({ query }, ctx) => ok(`Coverage by ${query.group_by}`, await commitmentCoverage(deps, ctx, query)),
    getCommitmentRecommendations: async ({ query }, ctx) => {
      try {
        const result = await recommendCommitments(deps, ctx, query);
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
