import type { SpendImport, SpendImportSession, SpendImportSessionSummary } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { amount } from "../amounts";
import type { SpendImport as ImportRow, SpendImportSession as SessionRow } from "../../generated/prisma/client";

export function toSpendImport(row: ImportRow): SpendImport {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    file_name: row.fileName,
    focus_version: row.focusVersion as SpendImport["focus_version"],
    rows: row.rows,
    allocated_rows: row.allocatedRows,
    unallocated_rows: row.unallocatedRows,
    billing_account_ids: row.billingAccountIds,
    billing_periods: row.billingPeriods as SpendImport["billing_periods"],
    totals: row.totals as SpendImport["totals"],
    superseded_import_ids: row.supersededImportIds,
    session: row.sessionId,
    part: row.part,
    parts: row.parts,
    state: row.state as SpendImport["state"],
  };
}

/** The sums of the parts' totals, per currency. */
export function sumTotals(parts: ImportRow[]): SpendImport["totals"] {
  const sums = new Map<string, { billed: Decimal; effective: Decimal }>();
  for (const part of parts)
    for (const t of part.totals as SpendImport["totals"]) {
      const sum = sums.get(t.currency) ?? { billed: new Decimal(0), effective: new Decimal(0) };
      sums.set(t.currency, { billed: sum.billed.plus(t.billed_cost), effective: sum.effective.plus(t.effective_cost) });
    }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, t]) => ({ currency, billed_cost: amount(t.billed), effective_cost: amount(t.effective) }));
}

/** A session with its parts received so far (`parts`: its spend_imports rows). */
export function toSpendImportSession(row: SessionRow, parts: ImportRow[]): SpendImportSession {
  const completed = row.state === "completed";
  return {
    id: row.id,
    parts: row.parts,
    execution_id: row.executionId,
    data_files: row.dataFiles.length ? row.dataFiles : null,
    state: row.state as SpendImportSession["state"],
    created_at: row.createdAt.toISOString(),
    expires_at: completed ? null : row.expiresAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    received_parts: [...parts]
      .sort((a, b) => (a.part ?? 0) - (b.part ?? 0))
      .map((part) => ({ part: part.part ?? 0, import_id: part.id, file_name: part.fileName, rows: part.rows, received_at: part.createdAt.toISOString() })),
    rows: parts.reduce((sum, part) => sum + part.rows, 0),
    totals: sumTotals(parts),
    superseded_import_ids: row.supersededImportIds,
  };
}

/** A session as the list shows it: without its manifest's data files (up to 10,000 URIs each), which only the session's own GET returns. */
export function toSpendImportSessionSummary(row: Omit<SessionRow, "dataFiles">, parts: ImportRow[]): SpendImportSessionSummary {
  const { data_files: _dataFiles, ...summary } = toSpendImportSession({ ...row, dataFiles: [] }, parts);
  return summary;
}
