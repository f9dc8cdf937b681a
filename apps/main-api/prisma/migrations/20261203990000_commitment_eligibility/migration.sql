-- Commitments count only the usage a commitment could cover: Usage lines charged by use
-- ('Usage-Based'), of category Compute, priced 'Standard' or 'Committed' (never spot), measured in
-- time (pricing or consumed unit containing 'hour' or 'hr', any case). The coverage roll-ups and
-- the hourly on-demand roll-up now hold those lines only, coverage gains the provider (a
-- commitment covers its own provider's lines), and the commitment and coverage roll-ups gain the
-- lines' on-demand equivalent (contracted cost where present, else list cost). All four are
-- rebuilt from the lines under these rules (the same ones src/spend/commitment-rollups.ts applies).
ALTER TABLE "spend_commitment_daily" ADD COLUMN "on_demand_equivalent" DECIMAL(38,10) NOT NULL DEFAULT 0;
ALTER TABLE "spend_commitment_daily" ALTER COLUMN "on_demand_equivalent" DROP DEFAULT;
ALTER TABLE "spend_coverage_daily" ADD COLUMN "provider" TEXT NOT NULL DEFAULT '', ADD COLUMN "on_demand_equivalent" DECIMAL(38,10) NOT NULL DEFAULT 0;
ALTER TABLE "spend_coverage_daily" ALTER COLUMN "provider" DROP DEFAULT, ALTER COLUMN "on_demand_equivalent" DROP DEFAULT;
ALTER TABLE "spend_coverage_monthly" ADD COLUMN "provider" TEXT NOT NULL DEFAULT '', ADD COLUMN "on_demand_equivalent" DECIMAL(38,10) NOT NULL DEFAULT 0;
ALTER TABLE "spend_coverage_monthly" ALTER COLUMN "provider" DROP DEFAULT, ALTER COLUMN "on_demand_equivalent" DROP DEFAULT;

CREATE TEMPORARY TABLE "eligible_lines" ON COMMIT DROP AS
SELECT l."organization_id", l."charge_period_start", l."charge_period_end", l."tenant_id", l."currency", l."provider", l."service_name",
    l."service_category", l."region", l."sub_account_id", l."pricing_category", l."commitment_discount_status", l."effective_cost", l."list_cost",
    coalesce(l."contracted_cost", l."list_cost", 0) AS "on_demand_equivalent"
FROM "spend_lines" l
WHERE l."charge_category" = 'Usage' AND l."charge_frequency" = 'Usage-Based' AND l."service_category" = 'Compute'
  AND l."pricing_category" IN ('Standard', 'Committed')
  AND (lower(coalesce(l."pricing_unit", '')) LIKE '%hour%' OR lower(coalesce(l."pricing_unit", '')) LIKE '%hr%'
    OR lower(coalesce(l."consumed_unit", '')) LIKE '%hour%' OR lower(coalesce(l."consumed_unit", '')) LIKE '%hr%');

DELETE FROM "spend_commitment_daily";
INSERT INTO "spend_commitment_daily" ("organization_id", "day", "dims_key", "currency", "commitment_discount_id", "commitment_discount_category",
    "commitment_discount_type", "commitment_discount_status", "provider", "billing_account_id", "pricing_category", "effective_cost", "list_cost",
    "on_demand_equivalent", "line_count")
SELECT "organization_id", "day",
    md5(jsonb_build_array("currency", "commitment_discount_id", "commitment_discount_category", "commitment_discount_type", "commitment_discount_status",
      "provider", "billing_account_id", "pricing_category")::text),
    "currency", "commitment_discount_id", "commitment_discount_category", "commitment_discount_type", "commitment_discount_status", "provider",
    "billing_account_id", "pricing_category", "effective_cost", "list_cost", "on_demand_equivalent", "line_count"
FROM (
  SELECT "organization_id", ("charge_period_start" AT TIME ZONE 'UTC')::date AS "day", coalesce("currency", '') AS "currency",
    coalesce("commitment_discount_id", '') AS "commitment_discount_id", coalesce("commitment_discount_category", '') AS "commitment_discount_category",
    coalesce("commitment_discount_type", '') AS "commitment_discount_type", coalesce("commitment_discount_status", '') AS "commitment_discount_status",
    coalesce("provider", '') AS "provider", coalesce("billing_account_id", '') AS "billing_account_id", coalesce("pricing_category", '') AS "pricing_category",
    coalesce(sum("effective_cost"), 0) AS "effective_cost", coalesce(sum("list_cost"), 0) AS "list_cost",
    sum(coalesce("contracted_cost", "list_cost", 0)) AS "on_demand_equivalent", count(*) AS "line_count"
  FROM "spend_lines" WHERE "charge_category" = 'Usage' AND "commitment_discount_id" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
) g;

DELETE FROM "spend_coverage_daily";
INSERT INTO "spend_coverage_daily" ("organization_id", "day", "dims_key", "tenant_id", "currency", "provider", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status", "effective_cost", "list_cost", "on_demand_equivalent", "line_count")
SELECT "organization_id", "day",
    md5(jsonb_build_array("tenant_id", "currency", "provider", "service_name", "service_category", "region", "sub_account_id", "pricing_category",
      "commitment_discount_status")::text),
    "tenant_id", "currency", "provider", "service_name", "service_category", "region", "sub_account_id", "pricing_category", "commitment_discount_status",
    "effective_cost", "list_cost", "on_demand_equivalent", "line_count"
FROM (
  SELECT "organization_id", ("charge_period_start" AT TIME ZONE 'UTC')::date AS "day", coalesce("tenant_id", '') AS "tenant_id",
    coalesce("currency", '') AS "currency", coalesce("provider", '') AS "provider", coalesce("service_name", '') AS "service_name",
    coalesce("service_category", '') AS "service_category", coalesce("region", '') AS "region", coalesce("sub_account_id", '') AS "sub_account_id",
    coalesce("pricing_category", '') AS "pricing_category", coalesce("commitment_discount_status", '') AS "commitment_discount_status",
    coalesce(sum("effective_cost"), 0) AS "effective_cost", coalesce(sum("list_cost"), 0) AS "list_cost",
    sum("on_demand_equivalent") AS "on_demand_equivalent", count(*) AS "line_count"
  FROM "eligible_lines"
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
) g;

DELETE FROM "spend_coverage_monthly";
INSERT INTO "spend_coverage_monthly" ("organization_id", "day", "dims_key", "tenant_id", "currency", "provider", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status", "effective_cost", "list_cost", "on_demand_equivalent", "line_count")
SELECT "organization_id", date_trunc('month', "day")::date, "dims_key", "tenant_id", "currency", "provider", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status", sum("effective_cost"), sum("list_cost"), sum("on_demand_equivalent"), sum("line_count")
  FROM "spend_coverage_daily"
 GROUP BY "organization_id", date_trunc('month', "day")::date, "dims_key", "tenant_id", "currency", "provider", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status";

DELETE FROM "spend_ondemand_hourly";
INSERT INTO "spend_ondemand_hourly" ("organization_id", "hour", "dims_key", "currency", "provider", "service_name", "service_category", "region",
    "effective_cost", "list_cost", "line_count")
SELECT "organization_id", "hour", md5(jsonb_build_array("currency", "provider", "service_name", "service_category", "region")::text),
    "currency", "provider", "service_name", "service_category", "region", "effective_cost", "list_cost", "line_count"
FROM (
  SELECT l."organization_id", h."hour", coalesce(l."currency", '') AS "currency", coalesce(l."provider", '') AS "provider",
    coalesce(l."service_name", '') AS "service_name", coalesce(l."service_category", '') AS "service_category", coalesce(l."region", '') AS "region",
    coalesce(sum(round(l."effective_cost" / h."hours", 10)), 0) AS "effective_cost", coalesce(sum(round(l."list_cost" / h."hours", 10)), 0) AS "list_cost", count(*) AS "line_count"
  FROM "eligible_lines" l
  CROSS JOIN LATERAL (
    SELECT date_trunc('hour', l."charge_period_start") + k * interval '1 hour' AS "hour",
      greatest(1, ceil(extract(epoch FROM (l."charge_period_end" - date_trunc('hour', l."charge_period_start"))) / 3600))::int AS "hours"
    FROM generate_series(0, greatest(1, ceil(extract(epoch FROM (l."charge_period_end" - date_trunc('hour', l."charge_period_start"))) / 3600))::int - 1) AS k
  ) h
  WHERE l."pricing_category" = 'Standard' AND l."charge_period_end" - l."charge_period_start" <= interval '744 hours'
  GROUP BY 1, 2, 3, 4, 5, 6, 7
) g;

ANALYZE "spend_commitment_daily";
ANALYZE "spend_coverage_daily";
ANALYZE "spend_coverage_monthly";
ANALYZE "spend_ondemand_hourly";
