import { defineRoute, failure, inTenant, ok } from "../declare.js";
import * as k from "./schemas.js";

const tags = ["Kubernetes"];

/** `/api/v1/tenant/kubernetes`: pod samples, cost allocation to Kubernetes workloads and node-pool right-sizing. */
export const mainApiKubernetesRoutes = {
  ingestPods: defineRoute(
    inTenant({
      tags,
      operationId: "ingestPods",
      method: "post",
      path: "/api/v1/tenant/kubernetes/pods",
      summary: "Send hourly pod samples (at most 10000); each makes its node billed for that hour",
      write: true,
      idempotent: true,
      // 10,000 samples with their labels run past the 1 MiB default.
      bodyLimit: "8 MiB",
      body: k.IngestPodsRequest,
      responses: { 200: ok("Accepted", k.IngestPodsResponse) },
    }),
  ),
  getAllocation: defineRoute(
    inTenant({
      tags,
      operationId: "getAllocation",
      method: "get",
      path: "/api/v1/tenant/kubernetes/allocation",
      summary: "The nodes' cost allocated to clusters, namespaces, controllers, pods or a label, with idle",
      description:
        "Each node-hour's price (from the bill where the node's spend lines have that day, else the catalog's effective price) is split into CPU, memory and GPUs in the ratio cpu_cores x 0.031611 : ram_gb x 0.004237 : gpu_count x 0.95; a pod is charged max(request, usage) of CPU and memory and its GPU request as a share of the node's capacity; what no pod claims is `__idle__`, or, with `share_idle=true`, each resource's idle is shared within its cluster by the groups' cost of that resource.",
      query: k.AllocationQuery,
      responses: { 200: ok("The allocation", k.Allocation), 503: failure("The pricing API is unavailable (code `pricing_unavailable`)") },
    }),
  ),
  putNodePoolSetting: defineRoute(
    inTenant({
      tags,
      operationId: "putNodePoolSetting",
      method: "put",
      path: "/api/v1/tenant/kubernetes/node-pools/settings",
      summary: "Set (or with null clear) a node pool's right-sizing floor, min_nodes",
      write: true,
      body: k.NodePoolSetting,
      responses: {
        200: ok("The setting as stored", k.NodePoolSetting),
        409: failure("A new floor beside the 1000 node pools of the tenant that already carry one (code `limit_reached`); clearing one makes room"),
      },
    }),
  ),
  listNodePoolRecommendations: defineRoute(
    inTenant({
      tags,
      operationId: "listNodePoolRecommendations",
      method: "get",
      path: "/api/v1/tenant/kubernetes/node-pools/recommendations",
      summary: "Node-pool right-sizing from the pods' requests over the lookback window",
      responses: {
        200: ok("One recommendation per node pool", k.NodePoolRecommendations),
        503: failure("The pricing API is unavailable (code `pricing_unavailable`)"),
      },
    }),
  ),
} as const;
