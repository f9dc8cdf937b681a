-- Coverage by month: the same dimensions and sums as spend_coverage_daily, one row per
-- (organization, first day of the UTC month, dimensions), so that a year of coverage reads twelve
-- months of rows (plus the days and hours at the range's edges) instead of every day.
-- CreateTable
CREATE TABLE "spend_coverage_monthly" (
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

    CONSTRAINT "spend_coverage_monthly_pkey" PRIMARY KEY ("organization_id","day","dims_key")
);

INSERT INTO "spend_coverage_monthly" ("organization_id", "day", "dims_key", "tenant_id", "currency", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status", "effective_cost", "list_cost", "line_count")
SELECT "organization_id", date_trunc('month', "day")::date, "dims_key", "tenant_id", "currency", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status", sum("effective_cost"), sum("list_cost"), sum("line_count")
  FROM "spend_coverage_daily"
 GROUP BY "organization_id", date_trunc('month', "day")::date, "dims_key", "tenant_id", "currency", "service_name", "service_category", "region",
    "sub_account_id", "pricing_category", "commitment_discount_status";
