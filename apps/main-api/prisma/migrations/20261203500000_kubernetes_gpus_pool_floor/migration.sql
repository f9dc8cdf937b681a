-- Kubernetes nodes may state their GPUs (default: the catalog's count of their type).
ALTER TABLE "compute_resources" ADD COLUMN "gpu_count" INTEGER;

-- Pods request GPUs: kept on the sample, and summed in the roll-ups beside CPU and memory.
ALTER TABLE "kubernetes_pod_samples" ADD COLUMN "gpu_request" DECIMAL NOT NULL DEFAULT 0;
ALTER TABLE "kubernetes_node_hours" ADD COLUMN "gpu_request" DECIMAL NOT NULL DEFAULT 0;
ALTER TABLE "kubernetes_node_days" ADD COLUMN "gpu_claim" DECIMAL NOT NULL DEFAULT 0;
ALTER TABLE "kubernetes_claim_days" ADD COLUMN "gpu_claim" DECIMAL NOT NULL DEFAULT 0;
ALTER TABLE "kubernetes_claim_months" ADD COLUMN "gpu_claim" DECIMAL NOT NULL DEFAULT 0;

-- A node pool's floor for right-sizing (absent: 2, or 1 for a pool of one node).
CREATE TABLE "kubernetes_node_pool_settings" (
    "tenant_id" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "node_pool" TEXT NOT NULL,
    "min_nodes" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kubernetes_node_pool_settings_pkey" PRIMARY KEY ("tenant_id", "cluster", "node_pool")
);
