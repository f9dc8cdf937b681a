import type { SpendAllocationRule } from "@cloudcost/contracts";
import type { Prisma } from "../../db";
import type { Prisma as Models, SpendImport, SpendImportSession } from "../../generated/prisma/client";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Tx } from "../../transactions";
import { type BillingPair, LEDGER_LINE_COLUMNS, type LedgerTx } from "../lines-repository";

type Db = Prisma | Tx;

const LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";

/**
 * Imports, rule changes and deletes of one organization take turns: an import allocates with the
 * rules it read and supersedes what was committed before it, so neither may change under it.
 */
export async function lockOrganizationImports(tx: Tx, organizationId: string): Promise<void> {
  await tx.$executeRawUnsafe(LOCK_SQL, `spend-imports:${organizationId}`);
}

export async function readRules(db: Db, organizationId: string): Promise<SpendAllocationRule[]> {
  const row = await db.spendAllocationRules.findUnique({ where: { organizationId } });
  return (row?.rules as SpendAllocationRule[] | undefined) ?? [];
}

export async function writeRules(tx: Tx, organizationId: string, rules: SpendAllocationRule[]): Promise<void> {
  await tx.spendAllocationRules.upsert({
    where: { organizationId },
    create: { organizationId, rules },
    update: { rules, updatedAt: new Date() },
  });
}

export function insertImport(tx: Tx, data: Models.SpendImportUncheckedCreateInput): Promise<SpendImport> {
  return tx.spendImport.create({ data });
}

/** A page of the organization's imports, newest first: `limit` rows before the id `before`. */
export function findImports(db: Db, organizationId: string, before: string | undefined, limit: number): Promise<SpendImport[]> {
  return db.spendImport.findMany({
    where: { organizationId, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: "desc" },
    take: limit,
  });
}

export function findImport(db: Db, organizationId: string, id: string): Promise<SpendImport | null> {
  return db.spendImport.findUnique({ where: { organizationId_id: { organizationId, id } } });
}

/** Returns how many imports were deleted (0: not in this organization). */
export async function deleteImportRow(tx: Tx, organizationId: string, id: string): Promise<number> {
  const { count } = await tx.spendImport.deleteMany({ where: { organizationId, id } });
  return count;
}

/** The same rules as `allocator`, in SQL over spend_lines `l` ($2: the rules as JSON). */
const RULE_TENANT = `(SELECT e.rule->>'tenant_id' FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(rule, n)
  WHERE (NOT jsonb_exists(e.rule, 'sub_account_ids') OR coalesce(jsonb_exists(e.rule->'sub_account_ids', l.sub_account_id), false))
    AND (NOT jsonb_exists(e.rule, 'billing_account_ids') OR coalesce(jsonb_exists(e.rule->'billing_account_ids', l.billing_account_id), false))
    AND (NOT jsonb_exists(e.rule, 'tag') OR (jsonb_typeof(l.tags->(e.rule->'tag'->>'key')) = 'string'
      AND jsonb_exists(e.rule->'tag'->'values', l.tags->>(e.rule->'tag'->>'key'))))
  ORDER BY e.n LIMIT 1)`;

const MOVE_COLUMNS = { id: "text", tenant_id: "text null" } as const;

const MOVES_SQL = `SELECT id, tenant_id FROM (SELECT l.id, l.tenant_id AS current, ${RULE_TENANT} AS tenant_id
       FROM spend_lines l WHERE l.organization_id = $1 AND l.source = 'focus_import') m
     WHERE current IS DISTINCT FROM tenant_id`;

/** The organization's import lines whose tenant under `rules` is not their current one, with that tenant (null: unallocated). */
export function findMisallocatedLines(tx: LedgerTx, organizationId: string, rules: SpendAllocationRule[]): Promise<RowOf<typeof MOVE_COLUMNS>[]> {
  return tx.$queryRawUnsafe<RowOf<typeof MOVE_COLUMNS>[]>(MOVES_SQL, organizationId, JSON.stringify(rules));
}

// Import sessions (docs/api.md, "Import sessions"): a session row, its parts (spend_imports rows
// with its session_id) and their staged lines (spend_staged_lines, import_id the part's).

export function findSession(db: Db, organizationId: string, id: string): Promise<SpendImportSession | null> {
  return db.spendImportSession.findUnique({ where: { organizationId_id: { organizationId, id } } });
}

export function insertSession(tx: Tx, data: Models.SpendImportSessionUncheckedCreateInput): Promise<SpendImportSession> {
  return tx.spendImportSession.create({ data });
}

export function updateSession(tx: Tx, organizationId: string, id: string, data: Models.SpendImportSessionUpdateInput): Promise<SpendImportSession> {
  return tx.spendImportSession.update({ where: { organizationId_id: { organizationId, id } }, data });
}

/** The parts of these sessions received so far, by session and part number. */
export function findSessionParts(db: Db, organizationId: string, sessionIds: string[]): Promise<SpendImport[]> {
  if (sessionIds.length === 0) return Promise.resolve([]);
  return db.spendImport.findMany({ where: { organizationId, sessionId: { in: sessionIds } }, orderBy: [{ sessionId: "asc" }, { part: "asc" }] });
}

/** A session as the list reads it: without its manifest's data files. */
export type SessionSummaryRow = Omit<SpendImportSession, "dataFiles">;

/** A page of the organization's sessions, newest first: `limit` rows created before the session `before` (its id), their data files not read. */
export async function findSessions(db: Db, organizationId: string, before: string | undefined, limit: number): Promise<SessionSummaryRow[]> {
  const after = before
    ? await db.spendImportSession.findUnique({ where: { organizationId_id: { organizationId, id: before } }, omit: { dataFiles: true } })
    : null;
  return db.spendImportSession.findMany({
    where: {
      organizationId,
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    omit: { dataFiles: true },
  });
}

/** Deletes the staged lines of these imports (parts). */
export async function deleteStagedLines(tx: Tx, organizationId: string, importIds: string[]): Promise<void> {
  if (importIds.length === 0) return;
  await tx.spendStagedLine.deleteMany({ where: { organizationId, importId: { in: importIds } } });
}

/** Removes a session with its parts and their staged lines (expiry). Returns the part import ids removed. */
export async function deleteSession(tx: Tx, organizationId: string, id: string): Promise<string[]> {
  const parts = await tx.spendImport.findMany({ where: { organizationId, sessionId: id }, select: { id: true } });
  const ids = parts.map((part) => part.id);
  await deleteStagedLines(tx, organizationId, ids);
  await tx.spendImport.deleteMany({ where: { organizationId, sessionId: id } });
  await tx.spendImportSession.deleteMany({ where: { organizationId, id } });
  return ids;
}

/** The organization's pending sessions whose time ran out at `now`. */
export async function findExpiredOrganizationSessions(tx: Tx, organizationId: string, now: Date): Promise<string[]> {
  const rows = await tx.spendImportSession.findMany({ where: { organizationId, state: "pending", expiresAt: { lte: now } }, select: { id: true } });
  return rows.map((row) => row.id);
}

/** How many of the organization's sessions are pending. */
export function countPendingSessions(tx: Tx, organizationId: string): Promise<number> {
  return tx.spendImportSession.count({ where: { organizationId, state: "pending" } });
}

/** The decoded bytes the organization's pending parts hold (their staged lines). */
export async function stagedBytes(tx: Tx, organizationId: string): Promise<number> {
  const sum = await tx.spendImport.aggregate({ where: { organizationId, state: "pending" }, _sum: { decodedBytes: true } });
  return Number(sum._sum.decodedBytes ?? 0n);
}

/** Pending sessions of every organization whose time ran out at `now` (at most `limit`). */
export function findExpiredSessions(db: Db, now: Date, limit: number): Promise<{ organizationId: string; id: string }[]> {
  return db.spendImportSession.findMany({
    where: { state: "pending", expiresAt: { lte: now } },
    select: { organizationId: true, id: true },
    orderBy: { expiresAt: "asc" },
    take: limit,
  });
}

export function markPartsCompleted(tx: Tx, organizationId: string, sessionId: string): Promise<Models.BatchPayload> {
  return tx.spendImport.updateMany({ where: { organizationId, sessionId }, data: { state: "completed" } });
}

export function updateImport(tx: Tx, organizationId: string, id: string, data: Models.SpendImportUpdateInput): Promise<SpendImport> {
  return tx.spendImport.update({ where: { organizationId_id: { organizationId, id } }, data });
}

const PAIR_COLUMNS = { billing_account_id: "text", start: "text", end: "text" } as const;

const STAGED_PAIRS_SQL = `SELECT DISTINCT l.billing_account_id,
    to_char(l.billing_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS start,
    to_char(l.billing_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "end"
  FROM spend_staged_lines l WHERE l.organization_id = $1 AND l.import_id = ANY($2::text[])
  ORDER BY 1, 2, 3`;

/** The (billing account, billing period) pairs of these parts' staged lines (what the session replaces). */
export async function stagedBillingPairs(tx: LedgerTx, organizationId: string, importIds: string[]): Promise<BillingPair[]> {
  const rows = await tx.$queryRawUnsafe<RowOf<typeof PAIR_COLUMNS>[]>(STAGED_PAIRS_SQL, organizationId, importIds);
  return rows.map((row) => ({ billingAccountId: row.billing_account_id, start: row.start, end: row.end }));
}

/** Moves the staged lines of these parts into spend_lines, each allocated by the rules ($2) as RULE_TENANT decides ($3: the part ids). */
const MOVE_STAGED_SQL = `WITH moved AS (
    DELETE FROM spend_staged_lines l WHERE l.organization_id = $1 AND l.import_id = ANY($3::text[]) RETURNING l.*)
  INSERT INTO spend_lines (organization_id, ${LEDGER_LINE_COLUMNS.join(", ")})
  SELECT l.organization_id, ${LEDGER_LINE_COLUMNS.map((name) => (name === "tenant_id" ? `${RULE_TENANT} AS tenant_id` : `l.${name}`)).join(", ")}
  FROM moved l`;

/** Moves a session's staged lines (its parts `importIds`) into spend_lines under `rules` (no roll-up: the caller runs rollupImport per part). Returns the lines moved. */
export function moveStagedLines(tx: LedgerTx, organizationId: string, importIds: string[], rules: SpendAllocationRule[]): Promise<number> {
  return tx.$executeRawUnsafe(MOVE_STAGED_SQL, organizationId, JSON.stringify(rules), importIds);
}

const ALLOCATED_COLUMNS = { import_id: "text", rows: "int4", allocated: "int4" } as const;

const ALLOCATED_SQL = `SELECT l.import_id, count(*)::int AS rows, count(l.tenant_id)::int AS allocated
  FROM spend_lines l WHERE l.organization_id = $1 AND l.import_id = ANY($2::text[]) GROUP BY l.import_id`;

/** Lines stored and allocated per import, for these imports. */
export function allocatedCounts(tx: LedgerTx, organizationId: string, importIds: string[]): Promise<RowOf<typeof ALLOCATED_COLUMNS>[]> {
  return tx.$queryRawUnsafe<RowOf<typeof ALLOCATED_COLUMNS>[]>(ALLOCATED_SQL, organizationId, importIds);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "import lock", sql: LOCK_SQL, columns: null },
    { name: "misallocated import lines", sql: MOVES_SQL, columns: MOVE_COLUMNS },
    { name: "staged billing pairs", sql: STAGED_PAIRS_SQL, columns: PAIR_COLUMNS },
    { name: "move staged lines", sql: MOVE_STAGED_SQL, columns: null },
    { name: "allocated lines per import", sql: ALLOCATED_SQL, columns: ALLOCATED_COLUMNS, notNullByFilter: ["import_id"] },
  ];
}

/** What the import services read and write; each function takes the client or the transaction it runs in. */
export const importRepository = {
  lockOrganizationImports,
  readRules,
  writeRules,
  insertImport,
  findImports,
  findImport,
  deleteImportRow,
  findMisallocatedLines,
  findSession,
  insertSession,
  updateSession,
  findSessionParts,
  findSessions,
  deleteStagedLines,
  deleteSession,
  findExpiredOrganizationSessions,
  countPendingSessions,
  stagedBytes,
  findExpiredSessions,
  markPartsCompleted,
  updateImport,
  stagedBillingPairs,
  moveStagedLines,
  allocatedCounts,
};
export type ImportRepository = typeof importRepository;
