-- Multi-part FOCUS imports (docs/api.md, "Import sessions"): a part is an import of a session; its
-- lines wait in spend_staged_lines (no query reads them) until the session's last part arrives.
ALTER TABLE "spend_imports"
    ADD COLUMN "session_id" TEXT,
    ADD COLUMN "part" INTEGER,
    ADD COLUMN "parts" INTEGER,
    ADD COLUMN "state" TEXT NOT NULL DEFAULT 'completed';

-- CreateIndex
CREATE INDEX "spend_imports_organization_id_session_id_idx" ON "spend_imports"("organization_id", "session_id");

-- CreateTable
CREATE TABLE "spend_import_sessions" (
    "organization_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "parts" INTEGER NOT NULL,
    "execution_id" TEXT,
    "data_files" TEXT[],
    "state" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "superseded_import_ids" TEXT[],

    CONSTRAINT "spend_import_sessions_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable: the columns of spend_lines.
CREATE TABLE "spend_staged_lines" (
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
    "import_id" TEXT NOT NULL,
    "priced" BOOLEAN NOT NULL,
    "unpriced_reason" TEXT,
    "model" TEXT,
    "event_id" TEXT,
    "usage" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "charge_frequency" TEXT NOT NULL,
    "pricing_category" TEXT,
    "pricing_quantity" DECIMAL(38,10),
    "pricing_unit" TEXT,
    "contracted_cost" DECIMAL(38,10),
    "contracted_unit_price" DECIMAL(38,10),
    "list_unit_price" DECIMAL(38,10),
    "resource_type" TEXT,
    "commitment_discount_id" TEXT,
    "commitment_discount_category" TEXT,
    "commitment_discount_type" TEXT,
    "commitment_discount_status" TEXT,
    "commitment_discount_quantity" DECIMAL(38,10),
    "commitment_discount_unit" TEXT,
    "invoice_issuer" TEXT,
    "charge_description" TEXT,
    "sku_meter" TEXT,

    CONSTRAINT "spend_staged_lines_pkey" PRIMARY KEY ("organization_id","import_id","id")
);
