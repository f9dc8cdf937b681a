-- Recommendations over time: resizes start new evidence, resources can be retired, recommendations
-- carry a decision (state), and each resize or retirement keeps the recommendation it followed so
-- that realized savings can be measured against the bill.

ALTER TABLE "compute_resources"
  ADD COLUMN "shape_changed_at" TIMESTAMPTZ(3),
  ADD COLUMN "retired_at" TIMESTAMPTZ(3),
  ADD COLUMN "state" TEXT NOT NULL DEFAULT 'open',
  ADD COLUMN "state_reason" TEXT,
  ADD COLUMN "snoozed_until" TIMESTAMPTZ(3),
  ADD COLUMN "state_changed_at" TIMESTAMPTZ(3);
ALTER TABLE "compute_resources" ADD CONSTRAINT "manual_compute_resources_state_check" CHECK ("state" IN ('open', 'accepted', 'dismissed', 'snoozed'));

-- The summary's covering indexes hold live resources only, with what decides whether a saving counts.
DROP INDEX "manual_compute_resources_summary_idx";
CREATE INDEX "manual_compute_resources_summary_idx" ON "compute_resources" ("tenant_id", "resource_type", "action")
  INCLUDE ("savings_cents", "state", "snoozed_until", "provider", "region", "availability_zone", "instance_type", "architecture", "operating_system")
  WHERE "retired_at" IS NULL;
DROP INDEX "manual_compute_resources_top_savers_cover_idx";
CREATE INDEX "manual_compute_resources_top_savers_cover_idx" ON "compute_resources" ("tenant_id", "resource_type", "savings_monthly_usd" DESC, "resource_id" COLLATE "C")
  INCLUDE ("state", "snoozed_until", "provider", "region", "availability_zone", "instance_type", "architecture", "operating_system")
  WHERE "action" IN ('DOWNSIZE', 'UPSIZE', 'TERMINATE') AND "savings_monthly_usd" > 0 AND "retired_at" IS NULL;

-- One row per resize or retirement (to_* null and retired true), with the recommendation standing then.
CREATE TABLE "compute_resource_changes" (
  "tenant_id" TEXT NOT NULL,
  "resource_id" TEXT NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL,
  "retired" BOOLEAN NOT NULL DEFAULT false,
  "from_instance_type" TEXT,
  "from_cpu_cores" DOUBLE PRECISION,
  "from_ram_gb" DOUBLE PRECISION,
  "to_instance_type" TEXT,
  "to_cpu_cores" DOUBLE PRECISION,
  "to_ram_gb" DOUBLE PRECISION,
  "action" TEXT,
  "recommended_instance_type" TEXT,
  "savings_monthly_usd" DECIMAL(14,2),
  "current_monthly_cost_usd" DECIMAL(14,2),
  "recommended_monthly_cost_usd" DECIMAL(14,2),
  "analyzed_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "compute_resource_changes_pkey" PRIMARY KEY ("tenant_id", "resource_id", "at")
);
CREATE INDEX "compute_resource_changes_tenant_id_at_idx" ON "compute_resource_changes"("tenant_id", "at");

-- The sum of the CPU values (in hundredths) of a roll-up, for the window's mean; filled from the histograms.
ALTER TABLE "compute_sample_days" ADD COLUMN "cpu_sum" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "compute_sample_tail" ADD COLUMN "cpu_sum" BIGINT NOT NULL DEFAULT 0;
UPDATE "compute_sample_days" d SET "cpu_sum" = COALESCE((SELECT sum(u.b::bigint * u.n) FROM unnest(d."cpu_buckets", d."cpu_counts") AS u(b, n)), 0);
UPDATE "compute_sample_tail" t SET "cpu_sum" = COALESCE((SELECT sum(u.b::bigint * u.n) FROM unnest(t."cpu_buckets", t."cpu_counts") AS u(b, n)), 0);

-- A resource's bill lines by day (realized savings, committed usage): one key range per resource.
CREATE INDEX "manual_spend_lines_resource_day" ON "spend_lines"("organization_id", "resource_id", "charge_period_start")
  INCLUDE ("tenant_id", "effective_cost", "pricing_category", "charge_category")
  WHERE "resource_id" IS NOT NULL;
