-- The tag roll-up beside the service roll-up's dimensions (docs/api.md, "Spend: usage, queries,
-- lines, export"): per (organization, tenant, UTC day, tag key and value, and spend_service_daily's
-- dimensions), so that a tag filter or grouping beside a service, provider, category, source,
-- charge category, frequency or pricing category reads a roll-up, not the lines. Built from the
-- lines here, then maintained in the same statements as the other roll-ups.
CREATE TABLE "spend_tag_service_daily" (
    "organization_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "dims_key" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "charge_category" TEXT NOT NULL,
    "charge_frequency" TEXT NOT NULL,
    "pricing_category" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "service_category" TEXT NOT NULL,
    "unpriced_reason" TEXT NOT NULL,
    "tag_key" TEXT NOT NULL,
    "tag_value" TEXT NOT NULL,
    "billed_cost" DECIMAL NOT NULL,
    "effective_cost" DECIMAL NOT NULL,
    "list_cost" DECIMAL NOT NULL,
    "contracted_cost" DECIMAL NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_tag_service_daily_pkey" PRIMARY KEY ("organization_id","tenant_id","day","dims_key")
);
CREATE INDEX "spend_tag_service_daily_organization_id_tag_key_tag_value_d_idx" ON "spend_tag_service_daily"("organization_id", "tag_key", "tag_value", "day");

INSERT INTO "spend_tag_service_daily" ("organization_id", "tenant_id", "day", "dims_key", "currency", "source", "charge_category", "charge_frequency",
    "pricing_category", "provider", "service_name", "service_category", "unpriced_reason", "tag_key", "tag_value",
    "billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count")
SELECT "organization_id", "tenant_id", "day",
    md5(jsonb_build_array("currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider", "service_name",
        "service_category", "unpriced_reason", "tag_key", "tag_value")::text),
    "currency", "source", "charge_category", "charge_frequency", "pricing_category", "provider", "service_name", "service_category",
    "unpriced_reason", "tag_key", "tag_value", "billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count"
FROM (
    SELECT l."organization_id", coalesce(l."tenant_id", '') AS "tenant_id", (l."charge_period_start" AT TIME ZONE 'UTC')::date AS "day",
        coalesce(l."currency", '') AS "currency", coalesce(l."source", '') AS "source", coalesce(l."charge_category", '') AS "charge_category",
        coalesce(l."charge_frequency", '') AS "charge_frequency", coalesce(l."pricing_category", '') AS "pricing_category",
        coalesce(l."provider", '') AS "provider", coalesce(l."service_name", '') AS "service_name",
        coalesce(l."service_category", '') AS "service_category", coalesce(l."unpriced_reason", '') AS "unpriced_reason",
        t.key AS "tag_key", t.value AS "tag_value",
        coalesce(sum(l."billed_cost"), 0) AS "billed_cost", coalesce(sum(l."effective_cost"), 0) AS "effective_cost",
        coalesce(sum(l."list_cost"), 0) AS "list_cost", coalesce(sum(l."contracted_cost"), 0) AS "contracted_cost", count(*) AS "line_count"
    FROM "spend_lines" l CROSS JOIN LATERAL jsonb_each_text(l."tags") AS t(key, value)
    WHERE t.value IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
) g;

ANALYZE "spend_tag_service_daily";
