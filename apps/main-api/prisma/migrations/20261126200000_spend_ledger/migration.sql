-- CreateTable
CREATE TABLE "spend_lines" (
    "organization_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "tenant_id" TEXT,
    "source" TEXT NOT NULL,
    "charge_period_start" TIMESTAMPTZ(3) NOT NULL,
    "charge_period_end" TIMESTAMPTZ(3) NOT NULL,
    "charge_category" TEXT NOT NULL,
    "charge_class" TEXT,
    "provider" TEXT,
    "service_name" TEXT,
    "service_category" TEXT,
    "region" TEXT,
    "resource_id" TEXT,
    "resource_name" TEXT,
    "sku_id" TEXT,
    "sku_price_id" TEXT,
    "pricing_id" TEXT,
    "unit_prices" JSONB,
    "consumed_quantity" DECIMAL(38,10),
    "consumed_unit" TEXT,
    "billed_cost" DECIMAL(38,10),
    "effective_cost" DECIMAL(38,10),
    "list_cost" DECIMAL(38,10),
    "currency" TEXT,
    "tags" JSONB NOT NULL DEFAULT '{}',
    "sub_account_id" TEXT,
    "billing_account_id" TEXT,
    "billing_period_start" TIMESTAMPTZ(3),
    "billing_period_end" TIMESTAMPTZ(3),
    "import_id" TEXT,
    "priced" BOOLEAN NOT NULL,
    "unpriced_reason" TEXT,
    "model" TEXT,
    "event_id" TEXT,
    "usage" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_lines_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "spend_daily" (
    "organization_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "dims_key" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "charge_category" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "service_category" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "sub_account_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "unpriced_reason" TEXT NOT NULL,
    "billed_cost" DECIMAL(38,10) NOT NULL,
    "effective_cost" DECIMAL(38,10) NOT NULL,
    "list_cost" DECIMAL(38,10) NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_daily_pkey" PRIMARY KEY ("organization_id","tenant_id","day","dims_key")
);

-- CreateIndex
CREATE INDEX "spend_lines_organization_id_tenant_id_charge_period_start_idx" ON "spend_lines"("organization_id", "tenant_id", "charge_period_start");

-- CreateIndex
CREATE INDEX "spend_lines_organization_id_import_id_idx" ON "spend_lines"("organization_id", "import_id");

-- CreateIndex
CREATE UNIQUE INDEX "spend_lines_organization_id_tenant_id_event_id_key" ON "spend_lines"("organization_id", "tenant_id", "event_id");

-- CreateIndex
CREATE INDEX "spend_daily_organization_id_day_idx" ON "spend_daily"("organization_id", "day");
