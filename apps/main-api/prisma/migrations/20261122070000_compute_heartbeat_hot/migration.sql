-- Heartbeat bumps become HOT updates (heap only, no index entries): every metric batch and
-- heartbeat call moves last_heartbeat_at of each resource it names, and with the column INCLUDEd in
-- the two covering indexes each bump was a non-HOT update writing five index entries (a 1000-sample
-- batch of current samples: ingest p50 34 -> 203 ms on PostgreSQL). The `active` filter now reads the
-- heartbeat from the table row, and pages keep room for the new row versions.
ALTER TABLE "compute_resources" SET (fillfactor = 85);

DROP INDEX "manual_compute_resources_summary_idx";
CREATE INDEX "manual_compute_resources_summary_idx" ON "compute_resources" ("tenant_id", "resource_type", "action")
  INCLUDE ("savings_cents", "provider", "region", "availability_zone", "instance_type", "architecture", "operating_system");

DROP INDEX "manual_compute_resources_top_savers_cover_idx";
CREATE INDEX "manual_compute_resources_top_savers_cover_idx" ON "compute_resources" ("tenant_id", "resource_type", "savings_monthly_usd" DESC, "resource_id" COLLATE "C")
  INCLUDE ("provider", "region", "availability_zone", "instance_type", "architecture", "operating_system")
  WHERE "action" IN ('DOWNSIZE', 'UPSIZE', 'TERMINATE') AND "savings_monthly_usd" > 0;
