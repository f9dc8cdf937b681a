-- AlterTable
ALTER TABLE "organization_settings" ADD COLUMN     "anomaly_min_percent" DECIMAL(9,4) NOT NULL DEFAULT 30,
ADD COLUMN     "anomaly_min_usd" DECIMAL(18,4) NOT NULL DEFAULT 10;

-- CreateTable
CREATE TABLE "budgets" (
    "organization_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "amount" DECIMAL(38,10) NOT NULL,
    "currency" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "thresholds" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budgets_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "budget_notifications" (
    "organization_id" TEXT NOT NULL,
    "budget_id" TEXT NOT NULL,
    "threshold_kind" TEXT NOT NULL,
    "threshold_percent" DECIMAL(9,4) NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budget_notifications_pkey" PRIMARY KEY ("organization_id","budget_id","threshold_kind","threshold_percent","period_start")
);

-- CreateTable
CREATE TABLE "spend_anomalies" (
    "organization_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "cost" DECIMAL(38,10) NOT NULL,
    "expected" DECIMAL(38,10) NOT NULL,
    "impact" DECIMAL(38,10) NOT NULL,
    "score" DECIMAL(18,4) NOT NULL,
    "feedback" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_anomalies_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateIndex
CREATE INDEX "budgets_organization_id_tenant_id_id_idx" ON "budgets"("organization_id", "tenant_id", "id");

-- CreateIndex
CREATE INDEX "spend_anomalies_organization_id_tenant_id_day_idx" ON "spend_anomalies"("organization_id", "tenant_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "spend_anomalies_organization_id_tenant_id_service_name_day_key" ON "spend_anomalies"("organization_id", "tenant_id", "service_name", "day");
