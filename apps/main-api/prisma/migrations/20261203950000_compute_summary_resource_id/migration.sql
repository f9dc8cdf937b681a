-- The summary's `active` filter joins the tenant's heartbeats by resource_id. The summary's covering
-- index had every column the summary filters and sums but not resource_id, so with that filter each
-- of a large fleet's resources was read from the table as well (100,000 resources, filters and
-- `active`: 4,659 pages with the heartbeats hashed; 2,962 with resource_id in the index, read by an
-- index-only scan). resource_id is never updated, so the index still changes only with the inventory
-- and the cycle's results, never with ingest.
DROP INDEX "manual_compute_resources_summary_idx";
CREATE INDEX "manual_compute_resources_summary_idx" ON "compute_resources" ("tenant_id", "resource_type", "action")
  INCLUDE ("savings_cents", "state", "snoozed_until", "provider", "region", "availability_zone", "instance_type", "architecture", "operating_system", "resource_id")
  WHERE "retired_at" IS NULL;
