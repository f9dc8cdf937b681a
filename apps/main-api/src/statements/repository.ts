import type { CheckedStatement } from "@cloudcost/db";
import type { Prisma as PrismaTypes } from "../generated/prisma/client";
import type { Prisma } from "../db";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

const LOCK = 0x73746d74;

/** Serializes the organization's statement creations of a period, so that each takes the next number. */
export async function lockPeriod(tx: Pick<Tx, "$queryRawUnsafe">, organizationId: string, period: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${LOCK}, hashtext($1))::text AS locked`, `${organizationId}|${period}`);
}

export async function nextSequence(tx: Tx, organizationId: string, period: string): Promise<number> {
  const last = await tx.statement.aggregate({ where: { organizationId, period }, _max: { sequence: true } });
  return (last._max.sequence ?? 0) + 1;
}

export const withRecipients = {
  recipients: { select: { value: true, total: true }, orderBy: { value: "asc" } },
} as const satisfies PrismaTypes.StatementInclude;
export type StatementWithRecipients = PrismaTypes.StatementGetPayload<{ include: typeof withRecipients }>;

/** The latest final statement of the same period, by, metric and currency, with its recipients' totals. */
export function latestFinal(
  db: Db,
  organizationId: string,
  where: { period: string; by: string; metric: string; currency: string },
): Promise<StatementWithRecipients | null> {
  return db.statement.findFirst({
    where: { organizationId, ...where, status: "final" },
    orderBy: [{ finalizedAt: "desc" }, { sequence: "desc" }],
    include: withRecipients,
  });
}

export function findStatement(db: Db, organizationId: string, id: string): Promise<StatementWithRecipients | null> {
  return db.statement.findUnique({ where: { organizationId_id: { organizationId, id } }, include: withRecipients });
}

export function findStatements(db: Db, organizationId: string): Promise<StatementWithRecipients[]> {
  return db.statement.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "desc" }, { period: "desc" }, { sequence: "desc" }],
    include: withRecipients,
  });
}

export function findRecipient(db: Db, organizationId: string, statementId: string, value: string) {
  return db.statementRecipient.findUnique({ where: { organizationId_statementId_value: { organizationId, statementId, value } } });
}

/** A new statement and its recipients, in the caller's transaction. */
export async function insertStatement(
  tx: Tx,
  statement: PrismaTypes.StatementUncheckedCreateInput,
  recipients: PrismaTypes.StatementRecipientCreateManyInput[],
): Promise<void> {
  await tx.statement.create({ data: statement });
  if (recipients.length) await tx.statementRecipient.createMany({ data: recipients });
}

/** Turns the statement final if it is a draft: 1, else 0 (a final one, or none). */
export async function finalizeDraft(tx: Tx, organizationId: string, id: string, at: Date): Promise<number> {
  return (await tx.statement.updateMany({ where: { organizationId, id, status: "draft" }, data: { status: "final", finalizedAt: at } })).count;
}

/** Deletes the statement if it is a draft: 1, else 0 (a final one is never deleted). */
export async function deleteDraft(tx: Tx, organizationId: string, id: string): Promise<number> {
  return (await tx.statement.deleteMany({ where: { organizationId, id, status: "draft" } })).count;
}

export const statementRepository = {
  lockPeriod,
  nextSequence,
  latestFinal,
  findStatement,
  findStatements,
  findRecipient,
  insertStatement,
  finalizeDraft,
  deleteDraft,
};
export type StatementRepository = typeof statementRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "statement period lock", sql: `SELECT pg_advisory_xact_lock(${LOCK}, hashtext($1))::text AS locked`, columns: { locked: "text" } }];
}
