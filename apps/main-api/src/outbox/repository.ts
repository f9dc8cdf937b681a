import type { Prisma as PrismaNs } from "../generated/prisma/client";
import type { Prisma } from "../db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Tx } from "../transactions";

const MESSAGE_COLUMNS = { organizationId: "text", id: "text", topic: "text", payload: "jsonb", attempts: "int4" } as const;
export type OutboxMessage = Omit<RowOf<typeof MESSAGE_COLUMNS>, "payload"> & { payload: PrismaNs.JsonValue };

/** Writes a message in the caller's transaction, so it exists exactly when the change commits. */
export async function enqueue(
  tx: Tx,
  message: { organizationId: string; topic: string; aggregateId: string; payload: PrismaNs.InputJsonValue },
): Promise<void> {
  await tx.outboxMessage.create({ data: message });
}

/**
 * Claims due messages: each is leased for a minute (longer than a delivery's timeout) (its next_attempt_at moves forward), so another
 * worker or replica skips it. A message waits while an earlier message of the same aggregate is
 * undelivered (a key's revocation never overtakes its provisioning). SKIP LOCKED lets concurrent
 * claims pass each other instead of queueing.
 */
const CLAIM_SQL = `UPDATE outbox AS o
       SET next_attempt_at = now() + interval '60 seconds', attempts = o.attempts + 1
     WHERE (o.organization_id, o.id) IN (
       SELECT c.organization_id, c.id
         FROM outbox AS c
        WHERE c.delivered_at IS NULL
          AND c.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM outbox AS e
             WHERE e.organization_id = c.organization_id AND e.aggregate_id = c.aggregate_id
               AND e.delivered_at IS NULL AND e.id < c.id)
        ORDER BY c.next_attempt_at, c.id
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
    RETURNING o.organization_id AS "organizationId", o.id::text AS id, o.topic, o.payload, o.attempts`;

export function claimDue(prisma: Prisma, limit: number): Promise<OutboxMessage[]> {
  return prisma.$queryRawUnsafe<OutboxMessage[]>(CLAIM_SQL, limit);
}

export async function markDelivered(prisma: Prisma, message: OutboxMessage): Promise<void> {
  await prisma.outboxMessage.update({
    where: { organizationId_id: { organizationId: message.organizationId, id: BigInt(message.id) } },
    data: { deliveredAt: new Date(), lastError: null },
  });
}

export async function markFailed(prisma: Prisma, message: OutboxMessage, error: string, retryInMs: number): Promise<void> {
  await prisma.outboxMessage.update({
    where: { organizationId_id: { organizationId: message.organizationId, id: BigInt(message.id) } },
    data: { nextAttemptAt: new Date(Date.now() + retryInMs), lastError: error.slice(0, 1000) },
  });
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "outbox claim", sql: CLAIM_SQL, columns: MESSAGE_COLUMNS }];
}
