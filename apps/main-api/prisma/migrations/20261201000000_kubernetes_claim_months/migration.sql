-- Per calendar month (UTC), node and (cluster, namespace, controller): the claimed and used
-- core-hours and GB-hours, kept by the pod ingest beside the per-day roll-up. Allocation over whole
-- months reads a row per node and group here instead of one per day (30x fewer).
CREATE TABLE "kubernetes_claim_months" (
    "tenant_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "node" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "controller" TEXT NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 0,
    "cpu_claim" DECIMAL NOT NULL DEFAULT 0,
    "memory_claim" DECIMAL NOT NULL DEFAULT 0,
    "cpu_usage" DECIMAL NOT NULL DEFAULT 0,
    "memory_usage" DECIMAL NOT NULL DEFAULT 0,

    CONSTRAINT "kubernetes_claim_months_pkey" PRIMARY KEY ("tenant_id", "month", "node", "cluster", "namespace", "controller")
);

-- Every hour's batch updates the month's rows in place (kept HOT, as the day's).
ALTER TABLE "kubernetes_claim_months" SET (fillfactor = 70);

-- The months of the claims stored so far.
INSERT INTO "kubernetes_claim_months" ("tenant_id", "month", "node", "cluster", "namespace", "controller", "samples", "cpu_claim", "memory_claim", "cpu_usage", "memory_usage")
SELECT "tenant_id", date_trunc('month', "day"::timestamp)::date, "node", "cluster", "namespace", "controller", sum("samples")::int, sum("cpu_claim"), sum("memory_claim"), sum("cpu_usage"), sum("memory_usage")
FROM "kubernetes_claim_days"
GROUP BY 1, 2, 3, 4, 5, 6;
