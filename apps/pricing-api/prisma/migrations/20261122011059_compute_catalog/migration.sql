-- CreateTable
CREATE TABLE "compute_prices" (
    "provider" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "instance_type" TEXT NOT NULL,
    "operating_system" TEXT NOT NULL,
    "usage_type" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "cpu_cores" DECIMAL(10,3) NOT NULL,
    "ram_gb" DECIMAL(12,3) NOT NULL,
    "gpu_count" INTEGER NOT NULL,
    "burstable" BOOLEAN NOT NULL,
    "general_purpose" BOOLEAN NOT NULL,
    "architecture" TEXT NOT NULL,
    "price_per_hour" DECIMAL(20,10) NOT NULL,
    "currency" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "price_date" DATE NOT NULL,

    CONSTRAINT "compute_prices_pkey" PRIMARY KEY ("provider","region","instance_type","operating_system","usage_type")
);

-- CreateTable
CREATE TABLE "compute_rates" (
    "provider" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "cpu_rate" DECIMAL(20,10) NOT NULL,
    "ram_rate" DECIMAL(20,10) NOT NULL,
    "sample_rows" INTEGER NOT NULL,
    "method" TEXT NOT NULL,

    CONSTRAINT "compute_rates_pkey" PRIMARY KEY ("provider","region")
);

-- CreateTable
CREATE TABLE "compute_catalog_version" (
    "id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "seed_sha256" TEXT,
    "row_count" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "compute_catalog_version_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "compute_prices_provider_region_operating_system_usage_type__idx" ON "compute_prices"("provider", "region", "operating_system", "usage_type", "architecture");

-- Hand-written: value domains Prisma cannot express.
ALTER TABLE "compute_prices"
  ADD CONSTRAINT "manual_compute_prices_usage_type" CHECK ("usage_type" IN ('on_demand', 'spot')),
  ADD CONSTRAINT "manual_compute_prices_operating_system" CHECK ("operating_system" IN ('linux', 'windows')),
  ADD CONSTRAINT "manual_compute_prices_architecture" CHECK ("architecture" IN ('x86_64', 'arm64')),
  ADD CONSTRAINT "manual_compute_prices_values" CHECK ("price_per_hour" >= 0 AND "cpu_cores" > 0 AND "ram_gb" > 0 AND "gpu_count" >= 0);
ALTER TABLE "compute_catalog_version" ADD CONSTRAINT "manual_compute_catalog_version_singleton" CHECK ("id" = 'compute');
