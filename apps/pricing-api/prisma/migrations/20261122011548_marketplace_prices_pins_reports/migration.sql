-- CreateTable
CREATE TABLE "model_prices" (
    "account_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "model_key" CHAR(64) NOT NULL,
    "provider" TEXT NOT NULL,
    "publisher" TEXT NOT NULL DEFAULT '',
    "host" TEXT NOT NULL DEFAULT '',
    "model" TEXT NOT NULL,
    "model_id" TEXT NOT NULL DEFAULT '',
    "region" TEXT NOT NULL DEFAULT '',
    "token_bucket" TEXT NOT NULL,
    "unit_price_per_mtok" DECIMAL(30,12) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "effective_to" TIMESTAMPTZ(3),
    "fetched_at" TIMESTAMPTZ(3),
    "sku_price_id" TEXT,
    "source" TEXT,
    "source_url" TEXT,
    "context_limit" INTEGER,
    "output_limit" INTEGER,
    "modalities_input" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "modalities_output" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "open_weights" BOOLEAN,
    "reasoning" BOOLEAN,
    "structured_output" BOOLEAN,
    "tool_call" BOOLEAN,
    "raw_pricing_data" JSONB NOT NULL DEFAULT '{}',
    "tags" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("account_id","id")
);

-- CreateTable
CREATE TABLE "database_prices" (
    "account_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "provider" TEXT NOT NULL,
    "service" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "availability_zone" TEXT NOT NULL DEFAULT '',
    "usage_type" TEXT NOT NULL DEFAULT '',
    "engine" TEXT NOT NULL DEFAULT '',
    "edition" TEXT NOT NULL DEFAULT '',
    "deployment_option" TEXT NOT NULL DEFAULT '',
    "billing_config" TEXT NOT NULL DEFAULT '',
    "storage_type" TEXT NOT NULL DEFAULT '',
    "instance_type" TEXT NOT NULL DEFAULT '',
    "architecture" TEXT NOT NULL DEFAULT '',
    "period_billing_hours" DECIMAL(30,12) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "capacity_unit" TEXT,
    "cost_per_hour" DECIMAL(30,12),
    "native_cost_per_hour" DECIMAL(30,12),
    "cost_per_capacity_unit" DECIMAL(30,12),
    "cost_per_io_request" DECIMAL(30,12),
    "cost_per_iops_hour" DECIMAL(30,12),
    "cost_per_storage_gb_hour" DECIMAL(30,12),
    "native_cost_per_storage_gb_hour" DECIMAL(30,12),
    "cost_per_throughput_mbps_hour" DECIMAL(30,12),
    "cost_per_vcpu_license_hour" DECIMAL(30,12),
    "cpu_cores" DECIMAL(30,12),
    "cpu_cores_cost_per_hour" DECIMAL(30,12),
    "ram_gb" DECIMAL(30,12),
    "ram_gb_cost_per_hour" DECIMAL(30,12),
    "min_iops" DECIMAL(30,12),
    "max_iops" DECIMAL(30,12),
    "min_storage_gb" DECIMAL(30,12),
    "max_storage_gb" DECIMAL(30,12),
    "min_throughput_mbps" DECIMAL(30,12),
    "max_throughput_mbps" DECIMAL(30,12),
    "raw_pricing_data" JSONB NOT NULL DEFAULT '{}',
    "tags" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "database_prices_pkey" PRIMARY KEY ("account_id","id")
);

-- CreateTable
CREATE TABLE "pricing_pins" (
    "account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "database_price_id" TEXT,
    "model_price_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pricing_pins_pkey" PRIMARY KEY ("account_id","kind","resource_id")
);

-- CreateTable
CREATE TABLE "pricing_reports" (
    "account_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lines" JSONB NOT NULL,
    "totals" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pricing_reports_pkey" PRIMARY KEY ("account_id","id")
);

-- CreateTable
CREATE TABLE "pricing_report_database_refs" (
    "account_id" TEXT NOT NULL,
    "report_id" TEXT NOT NULL,
    "database_price_id" TEXT NOT NULL,

    CONSTRAINT "pricing_report_database_refs_pkey" PRIMARY KEY ("account_id","report_id","database_price_id")
);

-- CreateIndex
CREATE INDEX "model_prices_account_id_model_key_token_bucket_effective_fr_idx" ON "model_prices"("account_id", "model_key", "token_bucket", "effective_from");

-- CreateIndex
CREATE UNIQUE INDEX "database_prices_natural_key" ON "database_prices"("account_id", "key_hash");

-- CreateIndex
CREATE INDEX "pricing_pins_account_id_database_price_id_idx" ON "pricing_pins"("account_id", "database_price_id");

-- CreateIndex
CREATE INDEX "pricing_pins_account_id_model_price_id_idx" ON "pricing_pins"("account_id", "model_price_id");

-- CreateIndex
CREATE INDEX "pricing_report_database_refs_account_id_database_price_id_idx" ON "pricing_report_database_refs"("account_id", "database_price_id");

-- AddForeignKey
ALTER TABLE "model_prices" ADD CONSTRAINT "model_prices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "database_prices" ADD CONSTRAINT "database_prices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_pins" ADD CONSTRAINT "pricing_pins_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_pins" ADD CONSTRAINT "pricing_pins_account_id_database_price_id_fkey" FOREIGN KEY ("account_id", "database_price_id") REFERENCES "database_prices"("account_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_pins" ADD CONSTRAINT "pricing_pins_account_id_model_price_id_fkey" FOREIGN KEY ("account_id", "model_price_id") REFERENCES "model_prices"("account_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_reports" ADD CONSTRAINT "pricing_reports_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_report_database_refs" ADD CONSTRAINT "pricing_report_database_refs_account_id_report_id_fkey" FOREIGN KEY ("account_id", "report_id") REFERENCES "pricing_reports"("account_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pricing_report_database_refs" ADD CONSTRAINT "pricing_report_database_refs_account_id_database_price_id_fkey" FOREIGN KEY ("account_id", "database_price_id") REFERENCES "database_prices"("account_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written (Prisma cannot express these).
-- At most one open version (effective_to IS NULL) per model price identity. A scheduled future
-- change is the open row; the row it replaces stays live until its (future) effective_to.
CREATE UNIQUE INDEX "manual_model_prices_one_open" ON "model_prices"("account_id", "model_key", "token_bucket") WHERE "effective_to" IS NULL;

ALTER TABLE "model_prices" ADD CONSTRAINT "manual_model_prices_interval" CHECK ("effective_to" IS NULL OR "effective_to" >= "effective_from");
ALTER TABLE "model_prices" ADD CONSTRAINT "manual_model_prices_price" CHECK ("unit_price_per_mtok" >= 0);
ALTER TABLE "pricing_pins" ADD CONSTRAINT "manual_pricing_pins_target" CHECK (
  ("kind" = 'database' AND "database_price_id" IS NOT NULL AND "model_price_id" IS NULL) OR
  ("kind" = 'model' AND "model_price_id" IS NOT NULL AND "database_price_id" IS NULL)
);
