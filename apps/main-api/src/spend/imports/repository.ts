import type { SpendAllocationRule } from "@cloudcost/contracts";
import type { Prisma } from "../../db";
import type { Prisma as Models, SpendImport } from "../../generated/prisma/client";
import type { CheckedStatement, RowOf } from "../../sql-columns";
import type { Tx } from "../../transactions";
import type { LedgerTx } from "../ledger";

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

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "import lock", sql: LOCK_SQL, columns: null },
    { name: "misallocated import lines", sql: MOVES_SQL, columns: MOVE_COLUMNS },
  ];
}
