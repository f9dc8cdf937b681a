import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, readMigrations } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";

const MIGRATION = "20261203200000_invitations_key_sender";

test(`${MIGRATION} gives invitations sent with a key the key's user, and revokes the open ones that user could not send now`, async () => {
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-before-"));
  for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < MIGRATION)) {
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  }
  const db = await createTestDatabase(before);
  try {
    await db.sql.query(`INSERT INTO organizations (id, name, slug) VALUES ('org_i', 'I', 'i')`);
    await db.sql.query(
      `INSERT INTO users (organization_id, id, email, name, role, active) VALUES
         ('org_i', 'usr_admin', 'a@example.com', 'A', 'admin', true),
         ('org_i', 'usr_demoted', 'd@example.com', 'D', 'member', true),
         ('org_i', 'usr_gone', 'g@example.com', 'G', 'admin', false)`,
    );
    const key = (id: string, creator: string | null, revoked = false) =>
      `('org_i', '${id}', '${id}', 'admin', '${id.padEnd(64, "0")}', 'bl_${id}', ${creator ? `'${creator}'` : "NULL"}, ${revoked ? "now()" : "NULL"})`;
    await db.sql.query(
      `INSERT INTO api_keys (organization_id, id, name, role, key_hash, prefix, created_by_user_id, revoked_at) VALUES
         ${[key("k_live", "usr_admin"), key("k_revoked", "usr_admin", true), key("k_demoted", "usr_demoted"), key("k_gone", "usr_gone"), key("k_orphan", null)].join(", ")}`,
    );
    const invitation = (id: string, by: { user?: string; key?: string }, extra = "NULL") =>
      `('org_i', '${id}', '${id}@example.com', 'member', ${by.user ? `'${by.user}'` : "NULL"}, ${by.key ? `'${by.key}'` : "NULL"}, now() + interval '7 days', ${extra})`;
    await db.sql.query(
      `INSERT INTO invitations (organization_id, id, email, role, invited_by_user_id, invited_by_api_key_id, expires_at, accepted_at) VALUES
         ${[
           invitation("inv_live", { key: "k_live" }),
           invitation("inv_revoked_key", { key: "k_revoked" }),
           invitation("inv_demoted", { key: "k_demoted" }),
           invitation("inv_gone", { key: "k_gone" }),
           invitation("inv_orphan", { key: "k_orphan" }),
           invitation("inv_accepted", { key: "k_revoked" }, "now()"),
           invitation("inv_by_user", { user: "usr_admin" }),
         ].join(", ")}`,
    );

    expect((await migrate(db.sql, MIGRATIONS_DIR)).applied).toContain(MIGRATION);

    const rows = await db.sql.query<{ id: string; invited_by_user_id: string | null; invited_by_api_key_id: string | null; revoked: boolean }>(
      `SELECT id, invited_by_user_id, invited_by_api_key_id, revoked_at IS NOT NULL AS revoked FROM invitations WHERE organization_id = 'org_i' ORDER BY id`,
    );
    expect(rows.map((r) => [r.id, r.invited_by_user_id, r.invited_by_api_key_id, r.revoked])).toEqual([
      ["inv_accepted", "usr_admin", "k_revoked", false],
      ["inv_by_user", "usr_admin", null, false],
      ["inv_demoted", "usr_demoted", "k_demoted", true],
      ["inv_gone", "usr_gone", "k_gone", true],
      ["inv_live", "usr_admin", "k_live", false],
      ["inv_orphan", null, "k_orphan", true],
      ["inv_revoked_key", "usr_admin", "k_revoked", true],
    ]);
    // New rows sent with a key must name its user.
    await expect(
      db.sql.query(
        `INSERT INTO invitations (organization_id, id, email, role, invited_by_api_key_id, expires_at) VALUES ('org_i', 'inv_new', 'n@example.com', 'member', 'k_live', now())`,
      ),
    ).rejects.toThrow(/manual_invitations_key_sender/);
  } finally {
    await db.close();
    fs.rmSync(before, { recursive: true, force: true });
  }
});
