-- The heartbeat moves out of compute_resources into a narrow table of its own. Every metric batch
-- moves the heartbeat of each resource it names; on the resource row each move left a dead version
-- of the whole wide row behind, and the summary, which reads those rows, read ever more of them
-- (a 1,000-resource fleet sent 10 batches a second: 200,000 dead rows after a minute, the summary's
-- median from 12 ms to seconds). compute_resources now changes only when the inventory is upserted
-- or a cycle writes its results; the summary reads the heartbeat table only for its `active` filter,
-- one primary-key probe per resource.
--
-- The new table is built for frequent updates: half of each page is left free (fillfactor 50), so a
-- heartbeat's new version fits on its page (a HOT update: no index entry, and pruned on the next
-- read of the page); autovacuum starts after a fixed 1,000 dead rows rather than a fraction of the
-- table, unthrottled. The tail roll-up (rewritten per resource by every analysis cycle) and the
-- resource rows (rewritten by every cycle's results) get the same kind of settings. The embedded
-- database has no autovacuum: the services vacuum these tables themselves (compute/maintenance.ts).
CREATE TABLE "compute_resource_heartbeats" (
    "tenant_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "last_heartbeat_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "compute_resource_heartbeats_pkey" PRIMARY KEY ("tenant_id","resource_id")
) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);

INSERT INTO "compute_resource_heartbeats" ("tenant_id", "resource_id", "last_heartbeat_at")
SELECT "tenant_id", "resource_id", "last_heartbeat_at" FROM "compute_resources" WHERE "last_heartbeat_at" IS NOT NULL;

ALTER TABLE "compute_resources" DROP COLUMN "last_heartbeat_at";

ALTER TABLE "compute_resources" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);

ALTER TABLE "compute_sample_tail" SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0,
  toast.autovacuum_vacuum_scale_factor = 0, toast.autovacuum_vacuum_threshold = 1000, toast.autovacuum_vacuum_cost_delay = 0);
