-- Business metrics (docs/api.md, "Business metrics and unit cost"): an organization's daily series
-- (orders, active users, requests) that spend is divided by, and the split method `metric` shares
-- by. Keys lead with the organization (distributable by it).
CREATE TABLE "business_metrics" (
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "description" TEXT,
    "dimension_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "business_metrics_pkey" PRIMARY KEY ("organization_id","name")
);

-- A metric's amount per (UTC day, label), label '' for the amount without one. Read by (metric,
-- range of days) through the primary key; deleted with its metric.
CREATE TABLE "business_metric_values" (
    "organization_id" TEXT NOT NULL,
    "metric_name" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "label" TEXT NOT NULL,
    "amount" DECIMAL NOT NULL,

    CONSTRAINT "business_metric_values_pkey" PRIMARY KEY ("organization_id","metric_name","day","label")
);

ALTER TABLE "business_metric_values" ADD CONSTRAINT "business_metric_values_organization_id_metric_name_fkey" FOREIGN KEY ("organization_id", "metric_name") REFERENCES "business_metrics"("organization_id", "name") ON DELETE CASCADE ON UPDATE CASCADE;
