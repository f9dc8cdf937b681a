-- CreateTable
CREATE TABLE "compute_sample_tail" (
    "tenant_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "first_ts" TIMESTAMPTZ(3) NOT NULL,
    "last_ts" TIMESTAMPTZ(3) NOT NULL,
    "cpu_max" DOUBLE PRECISION NOT NULL,
    "cpu_buckets" SMALLINT[],
    "cpu_counts" INTEGER[],
    "memory_buckets" SMALLINT[],
    "memory_counts" INTEGER[],

    CONSTRAINT "compute_sample_tail_pkey" PRIMARY KEY ("tenant_id","resource_id")
);

-- CreateTable
CREATE TABLE "compute_sample_tail_late" (
    "tenant_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "cpu_utilization" DOUBLE PRECISION NOT NULL,
    "memory_utilization" DOUBLE PRECISION,

    CONSTRAINT "compute_sample_tail_late_pkey" PRIMARY KEY ("tenant_id","resource_id","ts")
);

-- CreateTable
CREATE TABLE "compute_sample_tail_status" (
    "tenant_id" TEXT NOT NULL,
    "from_day" DATE,
    "cut" TIMESTAMPTZ(3),
    "rolled_cut" TIMESTAMPTZ(3),
    "rolled_version" INTEGER,

    CONSTRAINT "compute_sample_tail_status_pkey" PRIMARY KEY ("tenant_id")
);

-- Tenants that already have an inventory get their status row here; new ones with their first
-- resource (inventory-service.ts). Ingest locks this row, so it must exist before any sample does.
INSERT INTO "compute_sample_tail_status" ("tenant_id") SELECT DISTINCT "tenant_id" FROM "compute_resources";
