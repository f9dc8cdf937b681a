-- The FOCUS columns a FinOps team needs, kept on every line (null where the file has none).
ALTER TABLE "spend_lines"
    ADD COLUMN "charge_frequency" TEXT,
    ADD COLUMN "pricing_category" TEXT,
    ADD COLUMN "pricing_quantity" DECIMAL(38,10),
    ADD COLUMN "pricing_unit" TEXT,
    ADD COLUMN "contracted_cost" DECIMAL(38,10),
    ADD COLUMN "contracted_unit_price" DECIMAL(38,10),
    ADD COLUMN "list_unit_price" DECIMAL(38,10),
    ADD COLUMN "resource_type" TEXT,
    ADD COLUMN "commitment_discount_id" TEXT,
    ADD COLUMN "commitment_discount_category" TEXT,
    ADD COLUMN "commitment_discount_type" TEXT,
    ADD COLUMN "commitment_discount_status" TEXT,
    ADD COLUMN "commitment_discount_quantity" DECIMAL(38,10),
    ADD COLUMN "commitment_discount_unit" TEXT,
    ADD COLUMN "invoice_issuer" TEXT,
    ADD COLUMN "charge_description" TEXT,
    ADD COLUMN "sku_meter" TEXT;

-- Existing lines: usage priced at ingestion is Usage-Based, Standard, contracted at what it billed,
-- priced by its consumed quantity;
-- an imported line's frequency is derived as for a file without ChargeFrequency (Purchase first,
-- then a charge period longer than 24 hours); the columns the old import dropped stay null.
UPDATE "spend_lines" SET
    "charge_frequency" = CASE
        WHEN "source" = 'usage' THEN 'Usage-Based'
        WHEN "charge_category" = 'Purchase' THEN 'One-Time'
        WHEN "charge_period_end" - "charge_period_start" > interval '24 hours' THEN 'Recurring'
        ELSE 'Usage-Based' END,
    "pricing_category" = CASE WHEN "source" = 'usage' THEN 'Standard' END,
    "contracted_cost" = CASE WHEN "source" = 'usage' THEN "billed_cost" END,
    "pricing_quantity" = CASE WHEN "source" = 'usage' THEN "consumed_quantity" END,
    "pricing_unit" = CASE WHEN "source" = 'usage' THEN "consumed_unit" END;
ALTER TABLE "spend_lines" ALTER COLUMN "charge_frequency" SET NOT NULL;

-- Both roll-ups gain charge_frequency and pricing_category as dimensions and contracted_cost as a
-- sum: their keys change, so they are rebuilt from the lines (the same sums the writes maintain).
TRUNCATE "spend_daily", "spend_service_daily";
ALTER TABLE "spend_daily"
    ADD COLUMN "charge_frequency" TEXT NOT NULL,
    ADD COLUMN "pricing_category" TEXT NOT NULL,
    ADD COLUMN "contracted_cost" DECIMAL(38,10) NOT NULL;
ALTER TABLE "spend_service_daily"
    ADD COLUMN "charge_frequency" TEXT NOT NULL,
    ADD COLUMN "pricing_category" TEXT NOT NULL,
    ADD COLUMN "contracted_cost" DECIMAL(38,10) NOT NULL;

INSERT INTO "spend_daily" ("organization_id", "tenant_id", "day", "dims_key", "currency", "source", "charge_category", "charge_frequency",
    "pricing_category", "provider", "service_name", "service_category", "region", "sub_account_id", "model", "unpriced_reason",
    "billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count")
SELECT "organization_id", "tenant_id", "day",
    md5(jsonb_build_array("currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider", "service_name",
        "service_category", "region", "sub_account_id", "model", "unpriced_reason")::text),
    "currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider", "service_name", "service_category", "region",
    "sub_account_id", "model", "unpriced_reason", "billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count"
FROM (
    SELECT "organization_id", coalesce("tenant_id", '') AS "tenant_id", ("charge_period_start" AT TIME ZONE 'UTC')::date AS "day",
        coalesce("currency", '') AS "currency", "source", "charge_category", "charge_frequency", coalesce("pricing_category", '') AS "pricing_category",
        coalesce("provider", '') AS "provider", coalesce("service_name", '') AS "service_name", coalesce("service_category", '') AS "service_category",
        coalesce("region", '') AS "region", coalesce("sub_account_id", '') AS "sub_account_id", coalesce("model", '') AS "model",
        coalesce("unpriced_reason", '') AS "unpriced_reason",
        coalesce(sum("billed_cost"), 0) AS "billed_cost", coalesce(sum("effective_cost"), 0) AS "effective_cost",
        coalesce(sum("list_cost"), 0) AS "list_cost", coalesce(sum("contracted_cost"), 0) AS "contracted_cost", count(*) AS "line_count"
    FROM "spend_lines"
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
) g;

INSERT INTO "spend_service_daily" ("organization_id", "tenant_id", "day", "dims_key", "currency", "source", "charge_category", "charge_frequency",
    "pricing_category", "provider", "service_name", "service_category", "unpriced_reason", "billed_cost", "effective_cost", "list_cost",
    "contracted_cost", "line_count")
SELECT "organization_id", "tenant_id", "day",
    md5(jsonb_build_array("currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider", "service_name",
        "service_category", "unpriced_reason")::text),
    "currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider", "service_name", "service_category", "unpriced_reason",
    sum("billed_cost"), sum("effective_cost"), sum("list_cost"), sum("contracted_cost"), sum("line_count")
FROM "spend_daily"
GROUP BY "organization_id", "tenant_id", "day", "currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider",
    "service_name", "service_category", "unpriced_reason";

-- The tag roll-up: per (organization, tenant, UTC day, currency, unpriced reason, tag key, tag
-- value) of every line carrying the key with a non-null value, maintained in the same statements
-- as the other two. A tag:<key> grouping reads it beside spend_service_daily (lines without the
-- key are the service roll-up's total less the key's rows); a tag:<key> filter reads it alone.
CREATE TABLE "spend_tag_daily" (
    "organization_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "dims_key" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "unpriced_reason" TEXT NOT NULL,
    "tag_key" TEXT NOT NULL,
    "tag_value" TEXT NOT NULL,
    "billed_cost" DECIMAL(38,10) NOT NULL,
    "effective_cost" DECIMAL(38,10) NOT NULL,
    "list_cost" DECIMAL(38,10) NOT NULL,
    "contracted_cost" DECIMAL(38,10) NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_tag_daily_pkey" PRIMARY KEY ("organization_id","tenant_id","day","dims_key")
);
CREATE INDEX "spend_tag_daily_organization_id_tag_key_day_idx" ON "spend_tag_daily"("organization_id", "tag_key", "day");

INSERT INTO "spend_tag_daily" ("organization_id", "tenant_id", "day", "dims_key", "currency", "unpriced_reason", "tag_key", "tag_value",
    "billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count")
SELECT "organization_id", "tenant_id", "day", md5(jsonb_build_array("currency", "unpriced_reason", "tag_key", "tag_value")::text),
    "currency", "unpriced_reason", "tag_key", "tag_value", "billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count"
FROM (
    SELECT l."organization_id", coalesce(l."tenant_id", '') AS "tenant_id", (l."charge_period_start" AT TIME ZONE 'UTC')::date AS "day",
        coalesce(l."currency", '') AS "currency", coalesce(l."unpriced_reason", '') AS "unpriced_reason", t.key AS "tag_key", t.value AS "tag_value",
        coalesce(sum(l."billed_cost"), 0) AS "billed_cost", coalesce(sum(l."effective_cost"), 0) AS "effective_cost",
        coalesce(sum(l."list_cost"), 0) AS "list_cost", coalesce(sum(l."contracted_cost"), 0) AS "contracted_cost", count(*) AS "line_count"
    FROM "spend_lines" l CROSS JOIN LATERAL jsonb_each_text(l."tags") AS t(key, value)
    WHERE t.value IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6, 7
) g;

ANALYZE "spend_daily";
ANALYZE "spend_service_daily";
ANALYZE "spend_tag_daily";
