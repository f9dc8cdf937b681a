import type { mainApiKubernetesRoutes } from "@cloudcost/contracts";
import { HttpError, releaseBody } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { createComputeCatalogs, PricingUnavailableError } from "../compute/catalog-prices";
import { loadComputeSettings } from "../compute/settings";
import { allocationRepository } from "./allocation-repository";
import { createAllocationService } from "./allocation-service";
import { createNodePoolService } from "./node-pools-service";
import { createPodService, podBatch } from "./pods-service";
import { kubernetesRepository } from "./repository";

type KubernetesOperations = keyof typeof mainApiKubernetesRoutes;

const pricingUnavailable = (err: unknown) => {
  if (err instanceof PricingUnavailableError)
    return new HttpError("pricing_unavailable", "The pricing API is unavailable, so nodes cannot be priced; retry later");
  return err;
};

/** Pod samples, allocation and node-pool sizing of one tenant (authorize selected the tenant and checked the role). */
export function kubernetesHandlers(deps: Pick<AppDeps, "prisma" | "db" | "pricingApi" | "logger" | "clock">): Handlers<KubernetesOperations> {
  const { sql } = deps.db;
  // Prices through the same client and cache shape as the right-sizing cycle (one cache per app).
  const catalogs = createComputeCatalogs(deps.pricingApi, deps.logger);
  const pods = createPodService({ sql, pods: kubernetesRepository });
  const allocations = createAllocationService({ sql, catalogs, allocations: allocationRepository, nodes: kubernetesRepository });
  const pools = createNodePoolService({ sql, prisma: deps.prisma, catalogs, pools: kubernetesRepository, settings: { loadComputeSettings } });
  return {
    ingestPods: async (input, { tenant }) => {
      const batch = podBatch(input.body.samples);
      releaseBody(input);
      const accepted = await pods.ingestPods(tenant, batch);
      return ok(`Accepted ${accepted} pod samples`, { accepted });
    },
    getAllocation: async ({ query }, { tenant }) => {
      try {
        const result = await allocations.allocation(tenant, query);
        return ok(`${result.rows.length} allocation rows`, result);
      } catch (err) {
        throw pricingUnavailable(err);
      }
    },
    putNodePoolSetting: async ({ body }, { tenant }) => {
      await pools.setNodePoolFloor(tenant.id, { cluster: body.cluster, nodePool: body.node_pool, minNodes: body.min_nodes });
      return ok(body.min_nodes === null ? "Node pool setting removed" : "Node pool setting saved", body);
    },
    listNodePoolRecommendations: async (_input, { tenant }) => {
      try {
        const result = await pools.nodePoolRecommendations(tenant, deps.clock());
        return ok(`${result.items.length} node pools`, result);
      } catch (err) {
        throw pricingUnavailable(err);
      }
    },
  };
}
