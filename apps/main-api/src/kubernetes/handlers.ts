import type { mainApiKubernetesRoutes } from "@cloudcost/contracts";
import { HttpError, releaseBody } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { createComputeCatalogs, PricingUnavailableError } from "../compute/catalog-prices";
import { loadComputeSettings } from "../compute/settings";
import { allocation } from "./allocation-service";
import { nodePoolRecommendations, setNodePoolFloor } from "./node-pools-service";
import { ingestPods, podBatch } from "./pods-service";

type KubernetesOperations = keyof typeof mainApiKubernetesRoutes;

const pricingUnavailable = (err: unknown) => {
  if (err instanceof PricingUnavailableError)
    return new HttpError("pricing_unavailable", "The pricing API is unavailable, so nodes cannot be priced; retry later");
  return err;
};

/** Pod samples, allocation and node-pool sizing of one tenant (authorize selected the tenant and checked the role). */
export function kubernetesHandlers(deps: Pick<AppDeps, "prisma" | "db" | "pricingApi" | "logger" | "clock">): Handlers<KubernetesOperations> {
  // Prices through the same client and cache shape as the right-sizing cycle (one cache per app).
  const catalogs = createComputeCatalogs(deps.pricingApi, deps.logger);
  return {
    ingestPods: async (input, { tenant }) => {
      const batch = podBatch(input.body.samples);
      releaseBody(input);
      const accepted = await ingestPods(deps.db.sql, tenant, batch);
      return ok(`Accepted ${accepted} pod samples`, { accepted });
    },
    getAllocation: async ({ query }, { tenant }) => {
      try {
        const result = await allocation(deps.db.sql, catalogs, tenant, query);
        return ok(`${result.rows.length} allocation rows`, result);
      } catch (err) {
        throw pricingUnavailable(err);
      }
    },
    putNodePoolSetting: async ({ body }, { tenant }) => {
      await setNodePoolFloor(deps.db.sql, tenant.id, { cluster: body.cluster, nodePool: body.node_pool, minNodes: body.min_nodes });
      return ok(body.min_nodes === null ? "Node pool setting removed" : "Node pool setting saved", body);
    },
    listNodePoolRecommendations: async (_input, { tenant }) => {
      try {
        const settings = await loadComputeSettings(deps.prisma, tenant.organizationId);
        const result = await nodePoolRecommendations(deps.db.sql, catalogs, tenant, settings, deps.clock());
        return ok(`${result.items.length} node pools`, result);
      } catch (err) {
        throw pricingUnavailable(err);
      }
    },
  };
}
