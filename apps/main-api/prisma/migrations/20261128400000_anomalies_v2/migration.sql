-- Spend anomalies v2: an anomaly belongs to a monitor (one service, or the tenant's total) in one
-- currency and spans consecutive days (start_day to end_day, inclusive); cost, expected and impact
-- are sums over those days, score their maximum. reason is 'spike' or 'new_service'. feedback_at is
-- when the feedback was given: `no` and `planned_activity` mute the monitor for 7 days from it.
-- Stored anomalies become one-day spikes of their service's monitor in USD (the only kind there was).
ALTER TABLE "spend_anomalies" RENAME COLUMN "day" TO "start_day";

ALTER TABLE "spend_anomalies"
    ADD COLUMN "monitor_kind" TEXT NOT NULL DEFAULT 'service',
    ADD COLUMN "currency" TEXT NOT NULL DEFAULT 'USD',
    ADD COLUMN "end_day" DATE,
    ADD COLUMN "days" INTEGER NOT NULL DEFAULT 1,
    ADD COLUMN "reason" TEXT NOT NULL DEFAULT 'spike',
    ADD COLUMN "feedback_at" TIMESTAMPTZ(3),
    ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- When old feedback was given was not kept: its creation time stands in (any mute from it is long over).
UPDATE "spend_anomalies" SET "end_day" = "start_day", "updated_at" = "created_at", "feedback_at" = CASE WHEN "feedback" IS NULL THEN NULL ELSE "created_at" END;

ALTER TABLE "spend_anomalies"
    ALTER COLUMN "end_day" SET NOT NULL,
    ALTER COLUMN "monitor_kind" DROP DEFAULT,
    ALTER COLUMN "currency" DROP DEFAULT,
    ALTER COLUMN "days" DROP DEFAULT,
    ALTER COLUMN "reason" DROP DEFAULT;

-- DropIndex
DROP INDEX "spend_anomalies_organization_id_tenant_id_service_name_day_key";
DROP INDEX "spend_anomalies_organization_id_tenant_id_day_idx";

-- One anomaly per (tenant, monitor, currency, first day), whoever detects it first.
CREATE UNIQUE INDEX "spend_anomalies_monitor_start_key" ON "spend_anomalies"("organization_id", "tenant_id", "monitor_kind", "service_name", "currency", "start_day");

-- Listing (ranges ending on or after a day) and detection (the anomalies a window can extend or is muted by).
CREATE INDEX "spend_anomalies_tenant_end_day_idx" ON "spend_anomalies"("organization_id", "tenant_id", "end_day");
