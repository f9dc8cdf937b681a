-- Anomaly monitors per value of a dimension (docs/api.md, "Anomalies by dimension"): the dimension's
-- key beside the monitor ('' for the service and total monitors); a dimension monitor keeps its
-- value in service_name ('' for the unallocated cost). The monitor's unique start key takes it.
ALTER TABLE "spend_anomalies" ADD COLUMN "dimension_key" TEXT NOT NULL DEFAULT '';

DROP INDEX "spend_anomalies_monitor_start_key";
CREATE UNIQUE INDEX "spend_anomalies_monitor_start_key" ON "spend_anomalies"("organization_id", "tenant_id", "monitor_kind", "dimension_key", "service_name", "currency", "start_day");
