import type { Report, UsageLine } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import { iso } from "../store/columns";
import { inTransaction } from "../store/transaction";
import { priceUsage } from "../usage/pricer";
import type { ReportRepository, ReportRow } from "./report-repository";

const toReport = (row: ReportRow): Report => ({
  id: row.id,
  name: row.name,
  created_at: iso(row.created_at),
  lines: row.lines,
  totals: row.totals,
});

/**
 * An account's stored, priced reports (built once by references/handlers.ts): the reports' own queries
 * go through `reports`, the pricing reads through usage/pricer.ts.
 */
export function createReportService({ prisma, reports }: { prisma: Prisma; reports: ReportRepository }) {
  /**
   * Prices the lines and stores them as priced, with a reference to every database entry used. The
   * database rows are read FOR KEY SHARE, so an entry cannot be deleted between pricing and storing.
   */
  async function createReport(accountId: string, name: string, usage: UsageLine[], labelPrefix: string): Promise<Report> {
    return inTransaction(prisma, async (tx) => {
      const priced = await priceUsage(tx, accountId, usage, { labelPrefix, lockDatabaseRows: true });
      const id = newId("rpt");
      const row = await reports.insertReport(tx, accountId, id, name, priced.lines, priced.totals);
      if (priced.databaseIds.length > 0) await reports.insertReportDatabaseRefs(tx, accountId, id, priced.databaseIds);
      return toReport(row);
    });
  }

  async function getReport(accountId: string, id: string): Promise<Report> {
    const row = await reports.findReport(prisma, accountId, id);
    if (!row) throw notFound(`No report with id ${id}.`);
    return toReport(row);
  }

  /** Deletes a report; its database references go with it (ON DELETE CASCADE). */
  async function deleteReport(accountId: string, id: string): Promise<void> {
    if (!(await reports.deleteReportRow(prisma, accountId, id))) throw notFound(`No report with id ${id}.`);
  }

  return { createReport, getReport, deleteReport };
}
