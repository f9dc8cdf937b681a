-- Right-sizing rule version 2 (docs/api.md, "The right-sizing rule").

-- Utilization is stored at 0.01 percentage-point resolution (half-up), as ingest now writes it.
UPDATE "compute_samples" SET "cpu_utilization" = round("cpu_utilization"::numeric, 2)::float8,
  "memory_utilization" = round("memory_utilization"::numeric, 2)::float8
WHERE "cpu_utilization" <> round("cpu_utilization"::numeric, 2)::float8
   OR "memory_utilization" <> round("memory_utilization"::numeric, 2)::float8;
ALTER TABLE "compute_samples" ADD COLUMN "network_in_bytes_per_s" DOUBLE PRECISION, ADD COLUMN "network_out_bytes_per_s" DOUBLE PRECISION;
ALTER TABLE "compute_sample_tail_late" ADD COLUMN "network_in_bytes_per_s" DOUBLE PRECISION, ADD COLUMN "network_out_bytes_per_s" DOUBLE PRECISION;

-- The roll-ups' histograms were keyed by whole percents; they are now keyed by hundredths
-- (0..10000) and carry the memory evidence and the network counts. The raw samples of the
-- lookback window are all kept, so the roll-ups are dropped and the next cycle rebuilds them.
DELETE FROM "compute_sample_days";
DELETE FROM "compute_sample_day_status";
DELETE FROM "compute_sample_tail";
DELETE FROM "compute_sample_tail_late";
UPDATE "compute_sample_tail_status" SET "from_day" = NULL, "rolled_cut" = NULL, "rolled_version" = NULL;
ALTER TABLE "compute_sample_days"
  ADD COLUMN "memory_first_ts" TIMESTAMPTZ(3), ADD COLUMN "memory_last_ts" TIMESTAMPTZ(3),
  ADD COLUMN "network_samples" INTEGER NOT NULL DEFAULT 0, ADD COLUMN "network_low" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "cpu_coarse_buckets" SMALLINT[], ADD COLUMN "cpu_coarse_counts" INTEGER[],
  ADD COLUMN "memory_coarse_buckets" SMALLINT[], ADD COLUMN "memory_coarse_counts" INTEGER[];
ALTER TABLE "compute_sample_tail"
  ADD COLUMN "memory_first_ts" TIMESTAMPTZ(3), ADD COLUMN "memory_last_ts" TIMESTAMPTZ(3),
  ADD COLUMN "network_samples" INTEGER NOT NULL DEFAULT 0, ADD COLUMN "network_low" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "compute_resources"
  ADD COLUMN "purchase_option" TEXT NOT NULL DEFAULT 'on_demand',
  ADD COLUMN "finding_reasons" TEXT[],
  ADD COLUMN "options" JSONB,
  ADD COLUMN "price" JSONB;

ALTER TABLE "organization_settings"
  ADD COLUMN "rightsizing_allow_architecture_change" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "rightsizing_savings_basis" TEXT NOT NULL DEFAULT 'effective';
