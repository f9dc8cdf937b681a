-- DropIndex (superseded by the covering summary index below, which has the same leading columns)
DROP INDEX "compute_resources_tenant_id_resource_type_action_idx";

-- AlterTable: savings in integer cents, derived by the database so it can never disagree with
-- savings_monthly_usd (Decimal(14,2), so the product is an exact integer).
ALTER TABLE "compute_resources" ADD COLUMN "savings_cents" BIGINT GENERATED ALWAYS AS (("savings_monthly_usd" * 100)::bigint) STORED;

-- The summary's counts and savings: an index-only scan of one (tenant, resource type), grouped by
-- action, with every filter column and the heartbeat of the `active` filter in the index tuple.
CREATE INDEX "manual_compute_resources_summary_idx" ON "compute_resources" ("tenant_id", "resource_type", "action")
  INCLUDE ("savings_cents", "provider", "region", "availability_zone", "instance_type", "architecture", "operating_system", "last_heartbeat_at");

-- The summary's top savers, now covering the filter columns: the filters are checked on the index
-- tuple (index-only scan), and only the ten winners are read from the table.
DROP INDEX "manual_compute_resources_top_savers_idx";
CREATE INDEX "manual_compute_resources_top_savers_cover_idx" ON "compute_resources" ("tenant_id", "resource_type", "savings_monthly_usd" DESC, "resource_id" COLLATE "C")
  INCLUDE ("provider", "region", "availability_zone", "instance_type", "architecture", "operating_system", "last_heartbeat_at")
  WHERE "action" IN ('DOWNSIZE', 'UPSIZE', 'TERMINATE') AND "savings_monthly_usd" > 0;
