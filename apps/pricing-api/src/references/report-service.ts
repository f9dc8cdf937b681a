import type { Report, UsageLine } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import { iso } from "../store/columns";
import { inTransaction } from "../store/transaction";
import { priceUsage } from "../usage/pricer";

interface ReportRow {
  id: string;
  name: string;
  created_at: Date;
  lines: Report["lines"];
  totals: Report["totals"];
}

const toReport = (row: ReportRow): Report => ({
  id: row.id,
  name: row.name,
  created_at: iso(row.created_at),
  lines: row.lines,
  totals: row.totals,
});

/**
 * Prices the lines and stores them as priced, with a reference to every database entry used. The
 * database rows are read FOR KEY SHARE, so an entry cannot be deleted between pricing and storing.
 */
export async function createReport(prisma: Prisma, accountId: string, name: string, usage: UsageLine[], labelPrefix: string): Promise<Report> {
  return inTransaction(prisma, async (tx) => {
    const priced = await priceUsage(tx, accountId, usage, { labelPrefix, lockDatabaseRows: true });
    const id = newId("rpt");
    const [row] = await tx.$queryRawUnsafe<ReportRow[]>(
      `INSERT INTO pricing_reports (account_id, id, name, lines, totals, created_at)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, now())
       RETURNING id, name, created_at, lines, totals`,
      accountId,
      id,
      name,
      JSON.stringify(priced.lines),
      JSON.stringify(priced.totals),
    );
    if (priced.databaseIds.length > 0) {
      await tx.$queryRawUnsafe(
        `INSERT INTO pricing_report_database_refs (account_id, report_id, database_price_id)
         SELECT $1, $2, ref FROM jsonb_array_elements_text($3::jsonb) AS ref`,
        accountId,
        id,
        JSON.stringify(priced.databaseIds),
      );
    }
    return toReport(row);
  });
}

export async function getReport(prisma: Prisma, accountId: string, id: string): Promise<Report> {
  const [row] = await prisma.$queryRawUnsafe<ReportRow[]>(
    `SELECT id, name, created_at, lines, totals FROM pricing_reports WHERE account_id = $1 AND id = $2`,
    accountId,
    id,
  );
  if (!row) throw notFound(`No report with id ${id}.`);
  return toReport(row);
}

/** Deletes a report; its database references go with it (ON DELETE CASCADE). */
export async function deleteReport(prisma: Prisma, accountId: string, id: string): Promise<void> {
  const rows = await prisma.$queryRawUnsafe<unknown[]>(`DELETE FROM pricing_reports WHERE account_id = $1 AND id = $2 RETURNING 1`, accountId, id);
  if (rows.length === 0) throw notFound(`No report with id ${id}.`);
}
