-- The largest day of an anomaly (its highest daily cost): feedback mutes the anomaly's monitor only
-- for days costing at most 1.2 times it. Anomalies stored before this take their whole cost (the
-- sum of their days, at least their largest day): their mutes stay as wide as they were or wider.
ALTER TABLE "spend_anomalies" ADD COLUMN "peak_cost" DECIMAL(38,10);
UPDATE "spend_anomalies" SET "peak_cost" = "cost";
ALTER TABLE "spend_anomalies" ALTER COLUMN "peak_cost" SET NOT NULL;
