-- CreateTable
CREATE TABLE "compute_sample_days" (
    "tenant_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "samples" INTEGER NOT NULL,
    "first_ts" TIMESTAMPTZ(3) NOT NULL,
    "last_ts" TIMESTAMPTZ(3) NOT NULL,
    "cpu_max" DOUBLE PRECISION NOT NULL,
    "cpu_buckets" SMALLINT[],
    "cpu_counts" INTEGER[],
    "memory_buckets" SMALLINT[],
    "memory_counts" INTEGER[],

    CONSTRAINT "compute_sample_days_pkey" PRIMARY KEY ("tenant_id","resource_id","day")
);

-- CreateTable
CREATE TABLE "compute_sample_day_status" (
    "tenant_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "rolled_version" INTEGER,

    CONSTRAINT "compute_sample_day_status_pkey" PRIMARY KEY ("tenant_id","day")
);
