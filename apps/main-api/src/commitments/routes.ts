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
    listCommitments: async ({ params, query }, { principal }) => {
      const report = await listCommitments(deps, principal, params.org_id, query);
      return ok(`${report.items.length} commitments`, report);
    },
    getCommitmentCoverage: async ({ params, query }, { principal }) =>
      ok(`Coverage by ${query.group_by}`, await commitmentCoverage(deps, principal, params.org_id, query)),
    getCommitmentRecommendations: async ({ params, query }, { principal }) => {
      try {
        const result = await recommendCommitments(deps, principal, params.org_id, query);
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
