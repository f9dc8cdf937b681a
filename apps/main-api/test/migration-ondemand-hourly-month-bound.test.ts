import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, readMigrations } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";

const MIGRATION = "20261203480000_spend_ondemand_hourly_month_bound";
const ROLLUPS = "20261129200000_spend_commitment_rollups";

const copyMigrations = (keep: (name: string) => boolean) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-"));
  for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => keep(m.name))) {
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
};

test(`${MIGRATION} takes the hours of Standard usage lines longer than 31 days out of spend_ondemand_hourly, leaving the other lines' hours`, async () => {
  // A database from before the roll-ups, with lines: upgrading fills spend_ondemand_hourly with the
  // earlier rule (every line over all its hours), then this migration applies the 31-day bound.
  const before = copyMigrations((name) => name < ROLLUPS);
  const db = await createTestDatabase(before);
  const upTo = copyMigrations((name) => name < MIGRATION);
  try {
    const line = (org: string, id: string, start: string, end: string, cost: string, pricing = "Standard") =>
      `('${org}', '${id}', 'focus_import', '${start}', '${end}', 'Usage', '${pricing}', 'Cloud', 'VMs', 'Compute', 'eu', 'USD', ${cost}, ${cost}, ${cost}, true, 'Usage-Based')`;
    await db.sql.query(
      `INSERT INTO spend_lines (organization_id, id, source, charge_period_start, charge_period_end, charge_category, pricing_category, provider,
         service_name, service_category, region, currency, billed_cost, effective_cost, list_cost, priced, charge_frequency) VALUES
         ${[
           line("org_long", "l_years", "2024-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "17544"),
           line("org_long", "l_month", "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z", "744"),
           line("org_long", "l_day", "2026-10-05T00:00:00Z", "2026-10-06T00:00:00Z", "24"),
           line("org_long", "l_committed", "2020-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "5", "Committed"),
           line("org_short", "s_hours", "2026-10-05T00:00:00Z", "2026-10-05T03:00:00Z", "3"),
         ].join(", ")}`,
    );
    await migrate(db.sql, upTo);
    const hours = async (org: string) =>
      (
        await db.sql.query<{ rows: number; cost: string; lines: string }>(
          `SELECT count(*)::int AS rows, coalesce(sum(effective_cost), 0)::numeric(38, 10)::text AS cost, coalesce(sum(line_count), 0)::text AS lines
             FROM spend_ondemand_hourly WHERE organization_id = $1`,
          [org],
        )
      )[0];
    expect(await hours("org_long")).toEqual({ rows: 17544 + 744, cost: "18312.0000000000", lines: String(17544 + 744 + 24) });
    const shortBefore = await db.sql.query(`SELECT * FROM spend_ondemand_hourly WHERE organization_id = 'org_short' ORDER BY hour`);
    expect(shortBefore).toHaveLength(3);

    // Up to this migration (a later one rebuilds the roll-up from eligible usage only, which these lines without a pricing unit are not).
    const through = copyMigrations((name) => name <= MIGRATION);
    try {
      expect((await migrate(db.sql, through)).applied).toContain(MIGRATION);
    } finally {
      fs.rmSync(through, { recursive: true, force: true });
    }
    // The 2-year line's hours are gone; the 31-day and the one-day lines keep theirs (the day's 24 hours inside the month's).
    expect(await hours("org_long")).toEqual({ rows: 744, cost: "768.0000000000", lines: String(744 + 24) });
    const [{ overlap }] = await db.sql.query<{ overlap: number }>(
      `SELECT count(*)::int AS overlap FROM spend_ondemand_hourly WHERE organization_id = 'org_long' AND line_count = 2 AND effective_cost = 2`,
    );
    expect(overlap).toBe(24);
    expect(await db.sql.query(`SELECT * FROM spend_ondemand_hourly WHERE organization_id = 'org_short' ORDER BY hour`)).toEqual(shortBefore);
  } finally {
    await db.close();
    fs.rmSync(before, { recursive: true, force: true });
    fs.rmSync(upTo, { recursive: true, force: true });
  }
}, 300_000);
