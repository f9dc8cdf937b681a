import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, readMigrations } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";

describe("migrations", () => {
  it("20261125050000_compute_resources_layout keeps every row, value, index and constraint of compute_resources", async () => {
    const layout = "20261125050000_compute_resources_layout";
    const before = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-before-"));
    for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < layout)) {
      fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    const db = await createTestDatabase(before);
    try {
      await db.sql.query(
        `INSERT INTO compute_resources (tenant_id, organization_id, resource_id, name, resource_type, provider, region, availability_zone,
           instance_type, architecture, operating_system, cpu_cores, ram_gb, labels, last_heartbeat_at, action, current_instance_type,
           recommended_instance_type, current_monthly_cost_usd, recommended_monthly_cost_usd, savings_monthly_usd, cpu_p95, cpu_max,
           memory_p95, sample_count, window_start, window_end, analyzed_at, created_at, updated_at)
         VALUES ('ten_a', 'org_a', 'vm-1', 'web 1', 'virtual_machine', 'aws', 'us-east-1', 'us-east-1a', 'm5.xlarge', 'x86_64', 'linux',
           4, 16, '{"team": "web", "env": "prod"}', '2026-11-25T01:02:03.456Z', 'DOWNSIZE', 'm5.xlarge', 'm5.large', 140.16, 70.08, 70.08,
           12.5, 40.25, 33.5, 2016, '2026-11-11T00:00:00.000Z', '2026-11-25T00:00:00.000Z', '2026-11-25T01:00:00.000Z',
           '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z'),
           ('ten_b', 'org_b', 'node-1', NULL, 'kubernetes_node', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '{}', NULL, NULL, NULL,
           NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '2026-11-03T00:00:00.000Z', '2026-11-04T00:00:00.000Z')`,
      );
      const rows = () => db.sql.query<{ row: Record<string, unknown> }>(`SELECT to_jsonb(r) AS row FROM compute_resources r ORDER BY tenant_id, resource_id`);
      const definitions = () =>
        db.sql.query<{ name: string; definition: string }>(
          `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'compute_resources'
           UNION ALL SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
             WHERE conrelid = 'compute_resources'::regclass AND contype <> 'n' -- PostgreSQL 18 lists NOT NULL here: compared below
           UNION ALL SELECT attname, concat_ws(' ', format_type(atttypid, atttypmod), CASE WHEN attnotnull THEN 'NOT NULL' END,
               CASE attgenerated WHEN 's' THEN 'GENERATED' END, pg_get_expr(adbin, adrelid))
             FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
             WHERE attrelid = 'compute_resources'::regclass AND attnum > 0 AND NOT attisdropped
           ORDER BY 1, 2`,
        );
      const oldRows = await rows();
      const oldDefinitions = await definitions();
      expect(oldRows.map((r) => r.row.savings_cents)).toEqual([7008, null]);

      const upToLayout = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-layout-"));
      for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name <= layout)) {
        fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(upToLayout, name), { recursive: true });
      }
      expect((await migrate(db.sql, upToLayout)).applied).toEqual([layout]);
      fs.rmSync(upToLayout, { recursive: true, force: true });

      expect(await rows()).toEqual(oldRows);
      expect(await definitions()).toEqual(oldDefinitions);
      const columns = await db.sql.query<{ attname: string }>(
        `SELECT attname FROM pg_attribute WHERE attrelid = 'compute_resources'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum LIMIT 4`,
      );
      expect(columns.map((c) => c.attname)).toEqual(["tenant_id", "resource_type", "action", "last_heartbeat_at"]);
      const [{ options }] = await db.sql.query<{ options: string[] }>(`SELECT reloptions AS options FROM pg_class WHERE relname = 'compute_resources'`);
      expect(options).toEqual(["fillfactor=85"]);
      // The generated column still follows the savings.
      await db.sql.query(`UPDATE compute_resources SET savings_monthly_usd = 1.25 WHERE tenant_id = 'ten_b'`);
      expect((await rows())[1].row.savings_cents).toBe(125);
    } finally {
      await db.close();
      fs.rmSync(before, { recursive: true, force: true });
    }
  }, 120_000);

  it("20261126100000_rightsizing_v2 rounds stored utilization to 0.01 points and drops the whole-percent roll-ups for a rebuild", async () => {
    const target = "20261126100000_rightsizing_v2";
    const before = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-before-"));
    for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < target)) {
      fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    const db = await createTestDatabase(before);
    try {
      await db.sql.query(
        `INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization, memory_utilization) VALUES
           ('ten_a', 'vm-1', '2026-11-20T00:00:00Z', 35.905, 12.344), ('ten_a', 'vm-1', '2026-11-20T00:05:00Z', 8.6, NULL)`,
      );
      await db.sql.query(
        `INSERT INTO compute_sample_days (tenant_id, resource_id, day, samples, first_ts, last_ts, cpu_max, cpu_buckets, cpu_counts)
         VALUES ('ten_a', 'vm-1', '2026-11-20', 2, '2026-11-20T00:00:00Z', '2026-11-20T00:05:00Z', 35.905, '{8,35}', '{1,1}')`,
      );
      await db.sql.query(`INSERT INTO compute_sample_day_status (tenant_id, day, version, rolled_version) VALUES ('ten_a', '2026-11-20', 1, 1)`);
      await db.sql.query(
        `INSERT INTO compute_sample_tail_status (tenant_id, from_day, cut, rolled_cut, rolled_version) VALUES ('ten_a', '2026-11-25', now(), now(), 1)`,
      );

      expect((await migrate(db.sql, MIGRATIONS_DIR)).applied).toContain(target);

      const samples = await db.sql.query(`SELECT cpu_utilization AS cpu, memory_utilization AS mem FROM compute_samples ORDER BY ts`);
      expect(samples).toEqual([
        { cpu: 35.91, mem: 12.34 },
        { cpu: 8.6, mem: null },
      ]);
      expect(await db.sql.query(`SELECT * FROM compute_sample_days`)).toEqual([]);
      expect(await db.sql.query(`SELECT * FROM compute_sample_day_status`)).toEqual([]);
      // The cut stays (ingest's fence); what the tail covered is forgotten, so the next cycle rebuilds it.
      expect(await db.sql.query(`SELECT from_day, rolled_cut, rolled_version, cut IS NOT NULL AS fenced FROM compute_sample_tail_status`)).toEqual([
        { from_day: null, rolled_cut: null, rolled_version: null, fenced: true },
      ]);
    } finally {
      await db.close();
      fs.rmSync(before, { recursive: true, force: true });
    }
  }, 120_000);

  it("20261125100000_invitations moves never-linked users (the old invitations) into invitations and keeps members", async () => {
    const target = "20261125100000_invitations";
    const before = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-before-"));
    for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < target)) {
      fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    const db = await createTestDatabase(before);
    try {
      await db.sql.query(`INSERT INTO organizations (id, name, slug) VALUES ('org_a', 'A', 'a')`);
      await db.sql.query(`INSERT INTO tenants (organization_id, id, name) VALUES ('org_a', 'ten_1', 'One'), ('org_a', 'ten_2', 'Two')`);
      await db.sql.query(
        `INSERT INTO users (organization_id, id, email, name, role, active, job_title, joined_at, updated_at) VALUES
           ('org_a', 'usr_OWNER', 'owner@a.example', 'Owner', 'owner', true, NULL, '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z'),
           ('org_a', 'usr_INVITED', 'bob@a.example', 'Bob', 'member', true, 'SRE', '2026-11-20T00:00:00Z', '2026-11-20T00:00:00Z'),
           ('org_a', 'usr_WITHDRAWN', 'eve@a.example', 'eve', 'viewer', false, NULL, '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z')`,
      );
      await db.sql.query(
        `INSERT INTO user_tenants (organization_id, user_id, tenant_id) VALUES ('org_a', 'usr_OWNER', 'ten_1'), ('org_a', 'usr_INVITED', 'ten_2'), ('org_a', 'usr_INVITED', 'ten_1')`,
      );
      await db.sql.query(`INSERT INTO identities (id, issuer, subject, organization_id, user_id) VALUES ('idn_1', 'iss', 'sub', 'org_a', 'usr_OWNER')`);

      expect((await migrate(db.sql, MIGRATIONS_DIR)).applied).toContain(target);

      const users = await db.sql.query<{ id: string }>(`SELECT id FROM users ORDER BY id`);
      expect(users.map((u) => u.id)).toEqual(["usr_OWNER"]);
      const tenants = await db.sql.query<{ user_id: string }>(`SELECT user_id FROM user_tenants`);
      expect(tenants.map((t) => t.user_id)).toEqual(["usr_OWNER"]);
      const invitations = await db.sql.query<Record<string, unknown>>(
        `SELECT id, email, role::text AS role, tenant_ids, name, job_title, created_at, expires_at > now() + interval '6 days' AS open_a_week,
           revoked_at, accepted_at FROM invitations ORDER BY id`,
      );
      expect(invitations).toEqual([
        {
          id: "inv_INVITED",
          email: "bob@a.example",
          role: "member",
          tenant_ids: ["ten_1", "ten_2"],
          name: "Bob",
          job_title: "SRE",
          created_at: new Date("2026-11-20T00:00:00Z"),
          open_a_week: true,
          revoked_at: null,
          accepted_at: null,
        },
        {
          id: "inv_WITHDRAWN",
          email: "eve@a.example",
          role: "viewer",
          tenant_ids: [],
          name: "eve",
          job_title: null,
          created_at: new Date("2026-11-21T00:00:00Z"),
          open_a_week: true,
          revoked_at: new Date("2026-11-22T00:00:00Z"),
          accepted_at: null,
        },
      ]);
      // One open invitation per organization and e-mail, enforced by the database.
      await expect(
        db.sql.query(`INSERT INTO invitations (organization_id, id, email, role, expires_at) VALUES ('org_a', 'inv_X', 'bob@a.example', 'viewer', now())`),
      ).rejects.toThrow(/manual_invitations_pending_email/);
      await db.sql.query(`INSERT INTO invitations (organization_id, id, email, role, expires_at) VALUES ('org_a', 'inv_Y', 'eve@a.example', 'viewer', now())`);
    } finally {
      await db.close();
      fs.rmSync(before, { recursive: true, force: true });
    }
  }, 120_000);
});
