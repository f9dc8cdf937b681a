-- CreateTable
CREATE TABLE "spend_service_daily" (
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
    "unpriced_reason" TEXT NOT NULL,
    "billed_cost" DECIMAL(38,10) NOT NULL,
    "effective_cost" DECIMAL(38,10) NOT NULL,
    "list_cost" DECIMAL(38,10) NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_service_daily_pkey" PRIMARY KEY ("organization_id","tenant_id","day","dims_key")
);

-- CreateIndex
CREATE INDEX "spend_service_daily_organization_id_day_idx" ON "spend_service_daily"("organization_id", "day");

-- Filled from the daily roll-up as it stands (the same sums, without model, region and sub_account_id);
-- from here on every ledger write maintains both in the same statements (src/spend/ledger.ts).
INSERT INTO "spend_service_daily" ("organization_id", "tenant_id", "day", "dims_key", "currency", "source", "charge_category", "provider",
    "service_name", "service_category", "unpriced_reason", "billed_cost", "effective_cost", "list_cost", "line_count")
SELECT "organization_id", "tenant_id", "day",
    md5(jsonb_build_array("currency", "source", "charge_category", "provider", "service_name", "service_category", "unpriced_reason")::text),
    "currency", "source", "charge_category", "provider", "service_name", "service_category", "unpriced_reason",
    sum("billed_cost"), sum("effective_cost"), sum("list_cost"), sum("line_count")
FROM "spend_daily"
GROUP BY "organization_id", "tenant_id", "day", "currency", "source", "charge_category", "provider", "service_name", "service_category", "unpriced_reason";
