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
GROUP BY "organization_id", "tenant_id", "day", "currency", "source", "charge_category", "provider", "service_name", "service_category", "unpriced_reason"
ORDER BY "organization_id", "day";
-- Statistics now, not at autovacuum's leisure: without them the planner takes the new table for
-- empty and sorts (rather than hashes) a month of it.
ANALYZE "spend_service_daily";

-- The event and import indexes become partial: an import line (no event_id) is not entered in the
-- event index, nor a usage line (no import_id) in the import index, so every stored line updates
-- one index fewer. Lookups are unchanged: dedupe names event_id IS NOT NULL in its ON CONFLICT, and
-- import_id = ... implies import_id IS NOT NULL.
CREATE UNIQUE INDEX "manual_spend_lines_event_id" ON "spend_lines"("organization_id", "tenant_id", "event_id") WHERE "event_id" IS NOT NULL;
DROP INDEX "spend_lines_organization_id_tenant_id_event_id_key";
CREATE INDEX "manual_spend_lines_import_id" ON "spend_lines"("organization_id", "import_id") WHERE "import_id" IS NOT NULL;
DROP INDEX "spend_lines_organization_id_import_id_idx";
