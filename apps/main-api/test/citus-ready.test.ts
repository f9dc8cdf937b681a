import { findDistributionProblems, type TableDistribution } from "@cloudcost/db/testing";
import { createTestContext, type TestContext } from "./helpers/context";

/**
 * The main API's schema can be distributed by tenant on Citus (docs/scaling.md). Every table is
 * classified here, so a new table fails this test until someone decides where it lives.
 */
const DISTRIBUTION: TableDistribution = {
  distributed: {
    compute_resources: "tenant_id",
    compute_resource_changes: "tenant_id",
    compute_resource_heartbeats: "tenant_id",
    compute_samples: "tenant_id",
    kubernetes_pod_samples: "tenant_id",
    kubernetes_node_hours: "tenant_id",
    kubernetes_claim_days: "tenant_id",
    kubernetes_claim_months: "tenant_id",
    kubernetes_node_days: "tenant_id",
    kubernetes_node_pool_settings: "tenant_id",
    compute_sample_days: "tenant_id",
    compute_sample_day_status: "tenant_id",
    compute_sample_tail: "tenant_id",
    compute_sample_tail_late: "tenant_id",
    compute_sample_tail_status: "tenant_id",
    organization_settings: "organization_id",
    tenants: "organization_id",
    users: "organization_id",
    user_tenants: "organization_id",
    api_keys: "organization_id",
    outbox: "organization_id",
    invitations: "organization_id",
    webhooks: "organization_id",
    webhook_events: "organization_id",
    webhook_deliveries: "organization_id",
    webhook_delivery_attempts: "organization_id",
    budgets: "organization_id",
    budget_notifications: "organization_id",
    spend_anomalies: "organization_id",
    spend_lines: "organization_id",
    spend_daily: "organization_id",
    spend_service_daily: "organization_id",
    spend_tag_daily: "organization_id",
    spend_tag_service_daily: "organization_id",
    spend_dimension_daily: "organization_id",
    spend_dimension_value_daily: "organization_id",
    dimension_versions: "organization_id",
    business_metrics: "organization_id",
    business_metric_values: "organization_id",
    statements: "organization_id",
    statement_recipients: "organization_id",
    spend_commitment_daily: "organization_id",
    spend_coverage_daily: "organization_id",
    spend_coverage_monthly: "organization_id",
    spend_ondemand_hourly: "organization_id",
    spend_imports: "organization_id",
    spend_import_sessions: "organization_id",
    spend_staged_lines: "organization_id",
    spend_allocation_rules: "organization_id",
  },
  global: {
    _prisma_migrations: "the migration runner's bookkeeping, one row per migration: stays on the coordinator",
    organizations: "one small row per customer, its slug unique across customers: a reference table",
    identities: "looked up by (issuer, subject) before the organization is known: a reference table",
    idempotency_keys: "keyed by the caller's scope string and never joined: distributed by scope on its own",
  },
  tolerated: {
    api_keys_key_hash_key:
      "a key is found by its hash before its organization is known; to shard, move (key_hash, organization_id, id) to a reference lookup table",
    identities_organization_id_user_id_fkey:
      "Citus refuses a reference table's foreign key into a distributed one; to shard, drop it (sign-up and acceptance write both rows in one transaction)",
  },
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe("schema ready to shard by tenant", () => {
  it("every table is classified, and each distributed table keys, indexes and references by its tenant column", async () => {
    expect(await findDistributionProblems(ctx.db.sql, DISTRIBUTION)).toEqual([]);
  });

  it("reports a new table, and a distributed table whose keys leave out its tenant column (positive control)", async () => {
    const problems = await ctx.db.sql.withSession(async (session) => {
      await session.exec("BEGIN");
      try {
        await session.exec(`
          CREATE TABLE probe_unclassified (id text PRIMARY KEY);
          CREATE TABLE probe_items (tenant_id text, id text, code text, owner_org text, owner_id text,
            PRIMARY KEY (id, tenant_id), UNIQUE (code), FOREIGN KEY (owner_org, owner_id) REFERENCES users (organization_id, id));`);
        const withProbe = { ...DISTRIBUTION, distributed: { ...DISTRIBUTION.distributed, probe_items: "tenant_id" } };
        return await findDistributionProblems(session, withProbe);
      } finally {
        await session.exec("ROLLBACK");
      }
    });
    expect([...problems].sort()).toEqual([
      "probe_items: foreign key probe_items_owner_org_owner_id_fkey (owner_org, owner_id) does not include tenant_id",
      "probe_items: primary key probe_items_pkey (id, tenant_id) does not lead with tenant_id",
      "probe_items: unique index probe_items_code_key (code) does not include tenant_id",
      "probe_unclassified: not classified (add it to the distributed or the global tables, with its reason)",
    ]);
  });
});
