/**
 * The spend benchmarks' ledger: `lines` usage lines of one organization (20 tenants, 90 days from
 * 2026-07-01, 200 models over 30 services, a `team` tag of 7 values) loaded with one INSERT ...
 * SELECT FROM generate_series, and the roll-ups built with one GROUP BY each (what the ledger's
 * writes maintain line by line; test/spend-ledger.test.ts checks that they agree).
 */
import fs from "node:fs";
import path from "node:path";
import type { Database } from "@cloudcost/db";
import { MIGRATIONS_DIR } from "../apps/main-api/src/db";
import { round } from "./measure";

/** The tag-service roll-up's fill, as its migration runs it on upgrade (its one INSERT ... SELECT over the lines). */
function tagServiceRollupFill(org: string): string {
  const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, "20261203620000_spend_tag_service_daily", "migration.sql"), "utf8");
  const insert = migration.split(";").find((statement) => statement.trimStart().startsWith("INSERT INTO"));
  const filter = "WHERE t.value IS NOT NULL";
  if (!insert?.includes(filter)) throw new Error(`the spend_tag_service_daily migration has no INSERT ... ${filter}`);
  // The benchmark's organization only (the usage benchmark's lines have their roll-ups already).
  return insert.replace(filter, `${filter} AND l."organization_id" = '${org}'`);
}

/** The four roll-ups of the generated lines, built with one GROUP BY each (spend_service_daily from spend_daily, as the migrations fill them). */
export async function buildRollup(db: Database, org: string) {
  await db.sql.exec(`
    INSERT INTO spend_daily (organization_id, tenant_id, day, dims_key, currency, source, charge_category, charge_frequency, pricing_category, provider,
        service_name, service_category, region, sub_account_id, model, unpriced_reason, billed_cost, effective_cost, list_cost, contracted_cost, line_count)
    SELECT organization_id, tenant_id, day,
      md5(jsonb_build_array(currency, source, charge_category, charge_frequency, pricing_category, provider, service_name, service_category, region,
        sub_account_id, model, unpriced_reason)::text),
      currency, source, charge_category, charge_frequency, pricing_category, provider, service_name, service_category, region, sub_account_id, model,
      unpriced_reason, b, e, l, c, n
    FROM (SELECT organization_id, coalesce(tenant_id, '') AS tenant_id, (charge_period_start AT TIME ZONE 'UTC')::date AS day, coalesce(currency, '') AS currency,
            source, charge_category, charge_frequency, coalesce(pricing_category, '') AS pricing_category, coalesce(provider, '') AS provider,
            coalesce(service_name, '') AS service_name, coalesce(service_category, '') AS service_category, coalesce(region, '') AS region,
            coalesce(sub_account_id, '') AS sub_account_id, coalesce(model, '') AS model, coalesce(unpriced_reason, '') AS unpriced_reason,
            sum(billed_cost) AS b, sum(effective_cost) AS e, sum(list_cost) AS l, coalesce(sum(contracted_cost), 0) AS c, count(*) AS n
          FROM spend_lines WHERE organization_id = '${org}' GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) g;
    INSERT INTO spend_service_daily (organization_id, tenant_id, day, dims_key, currency, source, charge_category, charge_frequency, pricing_category, provider,
        service_name, service_category, unpriced_reason, billed_cost, effective_cost, list_cost, contracted_cost, line_count)
    SELECT organization_id, tenant_id, day,
      md5(jsonb_build_array(currency, source, charge_category, charge_frequency, pricing_category, provider, service_name, service_category, unpriced_reason)::text),
      currency, source, charge_category, charge_frequency, pricing_category, provider, service_name, service_category, unpriced_reason,
      sum(billed_cost), sum(effective_cost), sum(list_cost), sum(contracted_cost), sum(line_count)
    FROM spend_daily WHERE organization_id = '${org}'
    GROUP BY organization_id, tenant_id, day, currency, source, charge_category, charge_frequency, pricing_category, provider, service_name, service_category,
      unpriced_reason;
    INSERT INTO spend_tag_daily (organization_id, tenant_id, day, dims_key, currency, unpriced_reason, tag_key, tag_value, billed_cost, effective_cost, list_cost,
        contracted_cost, line_count)
    SELECT organization_id, tenant_id, day, md5(jsonb_build_array(currency, unpriced_reason, tag_key, tag_value)::text), currency, unpriced_reason, tag_key,
      tag_value, b, e, l, c, n
    FROM (SELECT l.organization_id, coalesce(l.tenant_id, '') AS tenant_id, (l.charge_period_start AT TIME ZONE 'UTC')::date AS day,
            coalesce(l.currency, '') AS currency, coalesce(l.unpriced_reason, '') AS unpriced_reason, t.key AS tag_key, t.value AS tag_value,
            sum(l.billed_cost) AS b, sum(l.effective_cost) AS e, sum(l.list_cost) AS l, coalesce(sum(l.contracted_cost), 0) AS c, count(*) AS n
          FROM spend_lines l CROSS JOIN LATERAL jsonb_each_text(l.tags) AS t(key, value)
          WHERE l.organization_id = '${org}' AND t.value IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7) g;
    ${tagServiceRollupFill(org)};
    ANALYZE spend_lines; ANALYZE spend_daily; ANALYZE spend_service_daily; ANALYZE spend_tag_daily; ANALYZE spend_tag_service_daily;`);
}

export async function loadLedger(db: Database, org: string, lines: number) {
  const t0 = performance.now();
  await db.sql.exec(`
    DROP INDEX IF EXISTS spend_lines_organization_id_tenant_id_charge_period_start_idx;
    DROP INDEX IF EXISTS manual_spend_lines_import_id;
    DROP INDEX IF EXISTS manual_spend_lines_event_id;
    ALTER TABLE spend_lines SET (autovacuum_enabled = false);`);
  await db.sql.query(
    `INSERT INTO spend_lines (organization_id, id, tenant_id, source, charge_period_start, charge_period_end, charge_category, provider, service_name,
        service_category, region, resource_id, model, unit_prices, consumed_quantity, consumed_unit, billed_cost, effective_cost, list_cost, currency,
        tags, priced, charge_frequency, pricing_category, pricing_quantity, pricing_unit, contracted_cost)
     SELECT $1, 'spl_' || i, 'ten_' || lpad(t::text, 2, '0'),
       'usage', ts, ts + interval '1 hour', 'Usage', 'openai', 'service-' || lpad((m % 30)::text, 2, '0'), 'AI and Machine Learning', 'us-east-1',
       'model-' || m, 'model-' || m, '{"input": "2.5"}', q, 'Tokens', q * 0.0000025, q * 0.0000025, q * 0.000003, 'USD',
       jsonb_build_object('team', 'team-' || (i % 7)), true, 'Usage-Based', 'Standard', q, 'Tokens', q * 0.0000025
     FROM generate_series(1, $2::int) AS i,
       LATERAL (SELECT abs(hashint4(i)) % 200 AS m, abs(hashint4(-i)) % 20 AS t,
                       timestamptz '2026-07-01' + (abs(hashint4(i # 1234567)) % 90) * interval '1 day' + (i % 86400) * interval '1 second' AS ts,
                       (100 + i % 5000)::numeric AS q) x`,
    [org, lines],
  );
  const loaded = performance.now();
  await db.sql.exec(`
    CREATE INDEX spend_lines_organization_id_tenant_id_charge_period_start_idx ON spend_lines (organization_id, tenant_id, charge_period_start);
    CREATE INDEX manual_spend_lines_import_id ON spend_lines (organization_id, import_id) WHERE import_id IS NOT NULL;
    CREATE UNIQUE INDEX manual_spend_lines_event_id ON spend_lines (organization_id, tenant_id, event_id) WHERE event_id IS NOT NULL;`);
  const indexed = performance.now();
  await buildRollup(db, org);

  const [{ rollup, service, tag }] = await db.sql.query<{ rollup: number; service: number; tag: number }>(
    `SELECT (SELECT count(*)::int FROM spend_daily WHERE organization_id = $1) AS rollup,
       (SELECT count(*)::int FROM spend_service_daily WHERE organization_id = $1) AS service,
       (SELECT count(*)::int FROM spend_tag_daily WHERE organization_id = $1) AS tag`,
    [org],
  );
  return {
    lines,
    rollup_rows: rollup,
    service_rollup_rows: service,
    tag_rollup_rows: tag,
    insert_s: round((loaded - t0) / 1000),
    index_s: round((indexed - loaded) / 1000),
    rollup_s: round((performance.now() - indexed) / 1000),
  };
}
