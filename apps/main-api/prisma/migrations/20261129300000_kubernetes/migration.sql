-- Kubernetes nodes name their cluster and node pool.
ALTER TABLE "compute_resources" ADD COLUMN "cluster" TEXT, ADD COLUMN "node_pool" TEXT;

-- One row per pod and hour (a re-sent sample replaces it). Claims are max(request, usage).
CREATE TABLE "kubernetes_pod_samples" (
    "tenant_id" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "pod" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "node" TEXT NOT NULL,
    "controller" TEXT NOT NULL DEFAULT '',
    "labels" JSONB NOT NULL DEFAULT '{}',
    "cpu_request" DECIMAL NOT NULL,
    "memory_request" DECIMAL NOT NULL,
    "cpu_usage" DECIMAL,
    "memory_usage" DECIMAL,

    CONSTRAINT "kubernetes_pod_samples_pkey" PRIMARY KEY ("tenant_id", "cluster", "namespace", "pod", "hour")
);
CREATE INDEX "kubernetes_pod_samples_hour" ON "kubernetes_pod_samples"("tenant_id", "hour");

-- Per node and hour: the sums of the pods' requests (node-pool sizing) and that the node was
-- billed that hour (a pod sampled on it or a heartbeat).
CREATE TABLE "kubernetes_node_hours" (
    "tenant_id" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "pods" INTEGER NOT NULL DEFAULT 0,
    "cpu_request" DECIMAL NOT NULL DEFAULT 0,
    "memory_request" DECIMAL NOT NULL DEFAULT 0,

    CONSTRAINT "kubernetes_node_hours_pkey" PRIMARY KEY ("tenant_id", "node", "hour")
);
CREATE INDEX "kubernetes_node_hours_hour" ON "kubernetes_node_hours"("tenant_id", "hour");

-- Per day, node and (cluster, namespace, controller): the claimed and used core-hours and GB-hours,
-- maintained by the pod ingest in its transaction; allocation by cluster, namespace or controller reads only these.
CREATE TABLE "kubernetes_claim_days" (
    "tenant_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "node" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "controller" TEXT NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 0,
    "cpu_claim" DECIMAL NOT NULL DEFAULT 0,
    "memory_claim" DECIMAL NOT NULL DEFAULT 0,
    "cpu_usage" DECIMAL NOT NULL DEFAULT 0,
    "memory_usage" DECIMAL NOT NULL DEFAULT 0,

    CONSTRAINT "kubernetes_claim_days_pkey" PRIMARY KEY ("tenant_id", "day", "node", "cluster", "namespace", "controller")
);

-- Per node and day: the hours it was billed through pods or heartbeats and its pods' claims, kept
-- by the pod ingest and the heartbeats; allocation reads one row per node-day from here.
CREATE TABLE "kubernetes_node_days" (
    "tenant_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "node" TEXT NOT NULL,
    "cluster" TEXT,
    "hours" INTEGER NOT NULL DEFAULT 0,
    "cpu_claim" DECIMAL NOT NULL DEFAULT 0,
    "memory_claim" DECIMAL NOT NULL DEFAULT 0,

    CONSTRAINT "kubernetes_node_days_pkey" PRIMARY KEY ("tenant_id", "day", "node")
);
