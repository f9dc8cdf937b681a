-- The on-demand hourly roll-up holds only the Standard Usage lines whose charge period is at most 31
-- days (744 hours) long; a longer line stays in the ledger and every other roll-up, but is no longer
-- spread over its hours (one 2000-2030 line was 262,992 hourly rows). The organizations that hold such
-- a line get their hourly rows rebuilt from their lines under that rule, so that the roll-up equals
-- the lines again and later deletes subtract exactly what was added. The others are left as they are.
CREATE TEMPORARY TABLE "ondemand_rebuild" ON COMMIT DROP AS
SELECT DISTINCT "organization_id" FROM "spend_lines"
WHERE "charge_category" = 'Usage' AND "pricing_category" = 'Standard' AND "charge_period_end" - "charge_period_start" > interval '744 hours';

DELETE FROM "spend_ondemand_hourly" WHERE "organization_id" IN (SELECT "organization_id" FROM "ondemand_rebuild");

INSERT INTO "spend_ondemand_hourly" ("organization_id", "hour", "dims_key", "currency", "provider", "service_name", "service_category", "region",
    "effective_cost", "list_cost", "line_count")
SELECT "organization_id", "hour", md5(jsonb_build_array("currency", "provider", "service_name", "service_category", "region")::text),
    "currency", "provider", "service_name", "service_category", "region", "effective_cost", "list_cost", "line_count"
FROM (
  SELECT l."organization_id", h."hour", coalesce(l."currency", '') AS "currency", coalesce(l."provider", '') AS "provider",
    coalesce(l."service_name", '') AS "service_name", coalesce(l."service_category", '') AS "service_category", coalesce(l."region", '') AS "region",
    coalesce(sum(round(l."effective_cost" / h."hours", 10)), 0) AS "effective_cost", coalesce(sum(round(l."list_cost" / h."hours", 10)), 0) AS "list_cost", count(*) AS "line_count"
  FROM "spend_lines" l
  CROSS JOIN LATERAL (
    SELECT date_trunc('hour', l."charge_period_start") + k * interval '1 hour' AS "hour",
      greatest(1, ceil(extract(epoch FROM (l."charge_period_end" - date_trunc('hour', l."charge_period_start"))) / 3600))::int AS "hours"
    FROM generate_series(0, greatest(1, ceil(extract(epoch FROM (l."charge_period_end" - date_trunc('hour', l."charge_period_start"))) / 3600))::int - 1) AS k
  ) h
  WHERE l."organization_id" IN (SELECT "organization_id" FROM "ondemand_rebuild")
    AND l."charge_category" = 'Usage' AND l."pricing_category" = 'Standard' AND l."charge_period_end" - l."charge_period_start" <= interval '744 hours'
  GROUP BY 1, 2, 3, 4, 5, 6, 7
) g;
