import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, readMigrations } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";
import { commitmentRollupsMatchLines } from "./helpers/rollup";

const MIGRATION = "20261203990000_commitment_eligibility";

test(`${MIGRATION} rebuilds the commitment roll-ups from eligible usage only, with the provider and the on-demand equivalent`, async () => {
  // A database from before the migration, with lines: upgrading fills the roll-ups under the earlier
  // rules (every Usage line, every Standard line's hours), then this migration rebuilds them.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-migrations-"));
  for (const { name } of readMigrations(MIGRATIONS_DIR).filter((m) => m.name < MIGRATION))
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  const db = await createTestDatabase(dir);
  try {
    const line = (id: string, hour: number, extra: Partial<Record<string, string>>) => {
      const v = {
        pricing: "Standard",
        provider: "AWS",
        service: "Amazon EC2",
        category: "Compute",
        unit: "Hrs",
        frequency: "Usage-Based",
        cost: "4",
        contracted: "NULL",
        list: "4",
        status: "NULL",
        commitment: "NULL",
        ...extra,
      };
      const start = new Date(Date.UTC(2026, 9, 5, hour)).toISOString();
      const end = new Date(Date.UTC(2026, 9, 5, hour + (v.frequency === "Recurring" ? 48 : 1))).toISOString();
      return `('org_a', '${id}', 'focus_import', '${start}', '${end}', 'Usage', '${v.pricing}', '${v.provider}', '${v.service}', '${v.category}', 'eu', 'USD',
        ${v.cost}, ${v.cost}, ${v.list}, ${v.contracted}, true, '${v.frequency}', '${v.unit}', ${v.status}, ${v.commitment})`;
    };
    await migrate(db.sql, dir);
    await db.sql.query(
      `INSERT INTO spend_lines (organization_id, id, source, charge_period_start, charge_period_end, charge_category, pricing_category, provider,
         service_name, service_category, region, currency, billed_cost, effective_cost, list_cost, contracted_cost, priced, charge_frequency, pricing_unit,
         commitment_discount_status, commitment_discount_id) VALUES
         ${[
           line("ec2", 0, {}),
           line("covered", 1, { pricing: "Committed", cost: "7", list: "10", contracted: "9", status: "'Used'", commitment: "'sp-1'" }),
           line("unused", 2, { pricing: "Committed", cost: "3", list: "0", status: "'Unused'", commitment: "'sp-1'" }),
           line("spot", 3, { pricing: "Dynamic", cost: "1" }),
           line("ebs", 4, { category: "Storage", unit: "GB-Mo" }),
           line("monthly", 5, { frequency: "Recurring" }),
           line("azure", 6, { provider: "Microsoft", service: "Virtual Machines" }),
         ].join(", ")}`,
    );
    // The roll-ups as the earlier rules would have kept them for these lines (what a database upgraded with lines holds).
    await db.sql.query(`INSERT INTO spend_ondemand_hourly (organization_id, hour, dims_key, currency, provider, service_name, service_category, region,
        effective_cost, list_cost, line_count) VALUES ('org_a', '2026-10-05T04:00:00Z', 'old-ebs', 'USD', 'AWS', 'Amazon EC2', 'Storage', 'eu', 4, 4, 1)`);

    expect((await migrate(db.sql, MIGRATIONS_DIR)).applied).toContain(MIGRATION);
    // Rebuilt: equal to the lines under the new rules (the helper writes them out on its own).
    await commitmentRollupsMatchLines({ db }, "org_a");
    const coverage = await db.sql.query<{ provider: string; pricing_category: string; on_demand_equivalent: string }>(
      "SELECT provider, pricing_category, on_demand_equivalent::numeric(38, 2)::text AS on_demand_equivalent FROM spend_coverage_daily WHERE organization_id = 'org_a' ORDER BY 1, 2, 3",
    );
    // EC2 on demand (4, its list cost: no contracted cost), the covered hour (9, its contracted cost), the unused hour
    // (its list cost 0) and Azure's VM; never the spot hour, the EBS or the recurring line.
    expect(coverage).toEqual([
      { provider: "AWS", pricing_category: "Committed", on_demand_equivalent: "0.00" },
      { provider: "AWS", pricing_category: "Committed", on_demand_equivalent: "9.00" },
      { provider: "AWS", pricing_category: "Standard", on_demand_equivalent: "4.00" },
      { provider: "Microsoft", pricing_category: "Standard", on_demand_equivalent: "4.00" },
    ]);
    const hours = await db.sql.query<{ hour: Date }>("SELECT hour FROM spend_ondemand_hourly WHERE organization_id = 'org_a' ORDER BY hour");
    expect(hours.map((h) => new Date(h.hour).getUTCHours())).toEqual([0, 6]);
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
