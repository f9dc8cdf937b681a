import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, readMigrations } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";
import { ApiKeySyncPayload } from "../src/outbox/pricing-api-keys";

const MIGRATION = "20261125110000_creator_bound_api_keys";

test(`${MIGRATION} re-syncs every live key to the pricing API with its effective role and suspension`, async () => {
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-before-"));
  for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < MIGRATION)) {
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  }
  const db = await createTestDatabase(before);
  try {
    await db.sql.query(`INSERT INTO organizations (id, name, slug) VALUES ('org_m', 'M', 'm')`);
    await db.sql.query(
      `INSERT INTO users (organization_id, id, email, name, role, active) VALUES
         ('org_m', 'usr_admin', 'a@example.com', 'A', 'admin', true),
         ('org_m', 'usr_demoted', 'd@example.com', 'D', 'viewer', true),
         ('org_m', 'usr_gone', 'g@example.com', 'G', 'owner', false)`,
    );
    const key = (id: string, role: string, creator: string, revoked = false) =>
      `('org_m', '${id}', '${id} name', '${role}', '${id.padEnd(64, "0")}', 'bl_${id}', '${creator}', ${revoked ? "now()" : "NULL"})`;
    await db.sql.query(
      `INSERT INTO api_keys (organization_id, id, name, role, key_hash, prefix, created_by_user_id, revoked_at) VALUES
         ${[key("k1", "admin", "usr_admin"), key("k2", "admin", "usr_demoted"), key("k3", "member", "usr_gone"), key("k4", "admin", "usr_admin", true)].join(", ")}`,
    );
    expect((await migrate(db.sql, MIGRATIONS_DIR)).applied).toContain(MIGRATION);
    const messages = await db.sql.query<{ topic: string; aggregate_id: string; payload: unknown }>(
      `SELECT topic, aggregate_id, payload FROM outbox WHERE organization_id = 'org_m' ORDER BY aggregate_id`,
    );
    expect(messages.map((m) => [m.topic, m.aggregate_id, ApiKeySyncPayload.parse(m.payload)])).toEqual([
      ["pricing.api_key.provision", "k1", { key_hash: "k1".padEnd(64, "0"), id: "k1", prefix: "bl_k1", name: "k1 name", role: "admin", suspended: false }],
      ["pricing.api_key.provision", "k2", { key_hash: "k2".padEnd(64, "0"), id: "k2", prefix: "bl_k2", name: "k2 name", role: "viewer", suspended: false }],
      ["pricing.api_key.provision", "k3", { key_hash: "k3".padEnd(64, "0"), id: "k3", prefix: "bl_k3", name: "k3 name", role: "member", suspended: true }],
    ]);
  } finally {
    await db.close();
    fs.rmSync(before, { recursive: true, force: true });
  }
});
