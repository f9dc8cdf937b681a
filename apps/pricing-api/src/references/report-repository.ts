import type { Report } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Sql } from "../store/transaction";

const REPORT_COLUMNS = { id: "text", name: "text", created_at: "timestamptz", lines: "jsonb", totals: "jsonb" } as const;
export type ReportRow = Omit<RowOf<typeof REPORT_COLUMNS>, "lines" | "totals"> & { lines: Report["lines"]; totals: Report["totals"] };

const INSERT_SQL = `INSERT INTO pricing_reports (account_id, id, name, lines, totals, created_at)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, now())
       RETURNING id, name, created_at, lines, totals`;

export async function insertReport(tx: Sql, accountId: string, id: string, name: string, lines: Report["lines"], totals: Report["totals"]): Promise<ReportRow> {
  const [row] = await tx.$queryRawUnsafe<ReportRow[]>(INSERT_SQL, accountId, id, name, JSON.stringify(lines), JSON.stringify(totals));
  return row;
}

const INSERT_REFS_SQL = `INSERT INTO pricing_report_database_refs (account_id, report_id, database_price_id)
         SELECT $1, $2, ref FROM jsonb_array_elements_text($3::jsonb) AS ref`;

/** Records that the report used these database entries (which keeps them from being deleted). */
export async function insertReportDatabaseRefs(tx: Sql, accountId: string, reportId: string, databaseIds: string[]): Promise<void> {
  await tx.$queryRawUnsafe(INSERT_REFS_SQL, accountId, reportId, JSON.stringify(databaseIds));
}

const FIND_SQL = `SELECT id, name, created_at, lines, totals FROM pricing_reports WHERE account_id = $1 AND id = $2`;

export async function findReport(db: Sql, accountId: string, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.$queryRawUnsafe<ReportRow[]>(FIND_SQL, accountId, id);
  return row;
}

const DELETE_COLUMNS = { deleted: "int4" } as const;
const DELETE_SQL = `DELETE FROM pricing_reports WHERE account_id = $1 AND id = $2 RETURNING 1 AS deleted`;

/** Deletes a report and, by ON DELETE CASCADE, its database references; false: the account has no such report. */
export async function deleteReportRow(db: Sql, accountId: string, id: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<RowOf<typeof DELETE_COLUMNS>[]>(DELETE_SQL, accountId, id);
  return rows.length > 0;
}

/** Every query the report service makes (report-service.ts, createReportService). */
export const reportRepository = { insertReport, insertReportDatabaseRefs, findReport, deleteReportRow };
export type ReportRepository = typeof reportRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "report insert", sql: INSERT_SQL, columns: REPORT_COLUMNS },
    { name: "report database references insert", sql: INSERT_REFS_SQL, columns: null },
    { name: "report by id", sql: FIND_SQL, columns: REPORT_COLUMNS },
    { name: "report delete", sql: DELETE_SQL, columns: DELETE_COLUMNS },
  ];
}
