-- The commitment roll-up: Usage lines of a commitment per (organization, UTC day, commitment id,
-- category, type, status, provider, billing account, pricing category); utilization reads it.
-- CreateTable
CREATE TABLE "spend_commitment_daily" (
    "organization_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "dims_key" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "commitment_discount_id" TEXT NOT NULL,
    "commitment_discount_category" TEXT NOT NULL,
    "commitment_discount_type" TEXT NOT NULL,
    "commitment_discount_status" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "billing_account_id" TEXT NOT NULL,
    "pricing_category" TEXT NOT NULL,
    "effective_cost" DECIMAL(38,10) NOT NULL,
    "list_cost" DECIMAL(38,10) NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_commitment_daily_pkey" PRIMARY KEY ("organization_id","day","dims_key")
);

-- The coverage roll-up: Usage lines per (organization, UTC day, tenant, service, region, sub-account,
-- pricing category, commitment status); coverage reads it.
-- CreateTable
CREATE TABLE "spend_coverage_daily" (
    "organization_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "dims_key" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "service_category" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "sub_account_id" TEXT NOT NULL,
    "pricing_category" TEXT NOT NULL,
    "commitment_discount_status" TEXT NOT NULL,
    "effective_cost" DECIMAL(38,10) NOT NULL,
    "list_cost" DECIMAL(38,10) NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_coverage_daily_pkey" PRIMARY KEY ("organization_id","day","dims_key")
);

-- The on-demand hourly roll-up: Standard Usage lines spread evenly over the hours of their charge
-- period, per (organization, UTC hour, provider, service, region); purchase recommendations read it.
-- CreateTable
CREATE TABLE "spend_ondemand_hourly" (
    "organization_id" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "dims_key" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "service_category" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "effective_cost" DECIMAL(38,10) NOT NULL,
    "list_cost" DECIMAL(38,10) NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_ondemand_hourly_pkey" PRIMARY KEY ("organization_id","hour","dims_key")
);

-- Filled from the lines already stored; from here on every ledger write maintains the three.
INSERT INTO "spend_commitment_daily" ("organization_id", "day", "dims_key", "currency", "commitment_discount_id", "commitment_discount_category",
    "commitment_discount_type", "commitment_discount_status", "provider", "billing_account_id", "pricing_category", "effective_cost", "list_cost", "line_count")
SELECT "organization_id", "day",
    md5(jsonb_build_array("currency", "commitment_discount_id", "commitment_discount_category", "commitment_discount_type", "commitment_discount_status",
      "provider", "billing_account_id", "pricing_category")::text),
    "currency", "commitment_discount_id", "commitment_discount_category", "commitment_discount_type", "commitment_discount_status", "provider",
    "billing_account_id", "pricing_category", "effective_cost", "list_cost", "line_count"
FROM (
  SELECT "organization_id", ("charge_period_start" AT TIME ZONE 'UTC')::date AS "day", coalesce("currency", '') AS "currency",
    coalesce("commitment_discount_id", '') AS "commitment_discount_id", coalesce("commitment_discount_category", '') AS "commitment_discount_category",
    coalesce("commitment_discount_type", '') AS "commitment_discount_type", coalesce("commitment_discount_status", '') AS "commitment_discount_status",
    coalesce("provider", '') AS "provider", coalesce("billing_account_id", '') AS "billing_account_id", coalesce("pricing_category", '') AS "pricing_category",
    coalesce(sum("effective_cost"), 0) AS "effective_cost", coalesce(sum("list_cost"), 0) AS "list_cost", count(*) AS "line_count"
  FROM "spend_lines" WHERE "charge_category" = 'Usage' AND "commitment_discount_id" IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
) g;

INSERT INTO "spend_coverage_daily" ("organization_id", "day", "dims_key", "tenant_id", "currency", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status", "effective_cost", "list_cost", "line_count")
SELECT "organization_id", "day",
    md5(jsonb_build_array("tenant_id", "currency", "service_name", "service_category", "region", "sub_account_id", "pricing_category",
      "commitment_discount_status")::text),
    "tenant_id", "currency", "service_name", "service_category", "region", "sub_account_id", "pricing_category", "commitment_discount_status",
    "effective_cost", "list_cost", "line_count"
FROM (
  SELECT "organization_id", ("charge_period_start" AT TIME ZONE 'UTC')::date AS "day", coalesce("tenant_id", '') AS "tenant_id",
    coalesce("currency", '') AS "currency", coalesce("service_name", '') AS "service_name", coalesce("service_category", '') AS "service_category",
    coalesce("region", '') AS "region", coalesce("sub_account_id", '') AS "sub_account_id", coalesce("pricing_category", '') AS "pricing_category",
    coalesce("commitment_discount_status", '') AS "commitment_discount_status",
    coalesce(sum("effective_cost"), 0) AS "effective_cost", coalesce(sum("list_cost"), 0) AS "list_cost", count(*) AS "line_count"
  FROM "spend_lines" WHERE "charge_category" = 'Usage'
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
) g;

INSERT INTO "spend_ondemand_hourly" ("organization_id", "hour", "dims_key", "currency", "provider", "service_name", "service_category", "region",
    "effective_cost", "list_cost", "line_count")
SELECT "organization_id", "hour", md5(jsonb_build_array("currency", "provider", "service_name", "service_category", "region")::text),
    "currency", "provider", "service_name", "service_category", "region", "effective_cost", "list_cost", "line_count"
FROM (
  SELECT l."organization_id", h."hour", coalesce(l."currency", '') AS "currency", coalesce(l."provider", '') AS "provider",
    coalesce(l."service_name", '') AS "service_name", coalesce(l."service_category", '') AS "service_category", coalesce(l."region", '') AS "region",
    coalesce(sum(round(l."effective_cost" / h."hours", 10)), 0) AS "effective_cost", coalesce(sum(round(l."list_cost" / h."hours", 10)), 0) AS "list_cost", count(*) AS "line_count"
  FROM "spend_lines" l
  CROSS JOIN LATERAL (
    SELECT date_trunc('hour', l."charge_period_start") + k * interval '1 hour' AS "hour",
      greatest(1, ceil(extract(epoch FROM (l."charge_period_end" - date_trunc('hour', l."charge_period_start"))) / 3600))::int AS "hours"
    FROM generate_series(0, greatest(1, ceil(extract(epoch FROM (l."charge_period_end" - date_trunc('hour', l."charge_period_start"))) / 3600))::int - 1) AS k
  ) h
  WHERE l."charge_category" = 'Usage' AND l."pricing_category" = 'Standard'
  GROUP BY 1, 2, 3, 4, 5, 6, 7
) g;

ANALYZE "spend_commitment_daily";
ANALYZE "spend_coverage_daily";
ANALYZE "spend_ondemand_hourly";
