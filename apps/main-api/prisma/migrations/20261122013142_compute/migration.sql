-- CreateTable
CREATE TABLE "compute_resources" (
    "tenant_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT,
    "resource_type" TEXT NOT NULL,
    "provider" TEXT,
    "region" TEXT,
    "availability_zone" TEXT,
    "instance_type" TEXT,
    "architecture" TEXT,
    "operating_system" TEXT,
    "cpu_cores" DOUBLE PRECISION,
    "ram_gb" DOUBLE PRECISION,
    "labels" JSONB NOT NULL DEFAULT '{}',
    "last_heartbeat_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT,
    "current_instance_type" TEXT,
    "recommended_instance_type" TEXT,
    "current_monthly_cost_usd" DECIMAL(14,2),
    "recommended_monthly_cost_usd" DECIMAL(14,2),
    "savings_monthly_usd" DECIMAL(14,2),
    "cpu_p95" DOUBLE PRECISION,
    "cpu_max" DOUBLE PRECISION,
    "memory_p95" DOUBLE PRECISION,
    "sample_count" INTEGER,
    "window_start" TIMESTAMPTZ(3),
    "window_end" TIMESTAMPTZ(3),
    "analyzed_at" TIMESTAMPTZ(3),

    CONSTRAINT "compute_resources_pkey" PRIMARY KEY ("tenant_id","resource_id")
);

-- CreateTable
CREATE TABLE "compute_samples" (
    "tenant_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "cpu_utilization" DOUBLE PRECISION NOT NULL,
    "memory_utilization" DOUBLE PRECISION,

    CONSTRAINT "compute_samples_pkey" PRIMARY KEY ("tenant_id","resource_id","ts")
);

-- CreateIndex
CREATE INDEX "compute_resources_organization_id_tenant_id_idx" ON "compute_resources"("organization_id", "tenant_id");

-- CreateIndex
CREATE INDEX "compute_resources_tenant_id_resource_type_action_idx" ON "compute_resources"("tenant_id", "resource_type", "action");
-- Hand-written: enum-like columns are checked by the database too.
ALTER TABLE "compute_resources" ADD CONSTRAINT "manual_compute_resources_type_check" CHECK ("resource_type" IN ('virtual_machine', 'kubernetes_node'));
ALTER TABLE "compute_resources" ADD CONSTRAINT "manual_compute_resources_action_check" CHECK ("action" IN ('DOWNSIZE', 'UPSIZE', 'TERMINATE', 'NOOP', 'NO_RECOMMENDATION'));
ALTER TABLE "compute_samples" ADD CONSTRAINT "manual_compute_samples_percent_check" CHECK ("cpu_utilization" BETWEEN 0 AND 100 AND ("memory_utilization" IS NULL OR "memory_utilization" BETWEEN 0 AND 100));

-- Keyset pagination of the recommendations list in byte order.
CREATE INDEX "manual_compute_resources_keyset_idx" ON "compute_resources" ("tenant_id", "resource_type", "resource_id" COLLATE "C");

-- The summary's top savers: actionable resources with positive savings, largest first.
CREATE INDEX "manual_compute_resources_top_savers_idx" ON "compute_resources" ("tenant_id", "resource_type", "savings_monthly_usd" DESC, "resource_id" COLLATE "C")
  WHERE "action" IN ('DOWNSIZE', 'UPSIZE', 'TERMINATE') AND "savings_monthly_usd" > 0;

