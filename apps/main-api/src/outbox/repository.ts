import type { Prisma as PrismaNs } from "../generated/prisma/client";
import type { Prisma } from "../db";
import { type CheckedStatement, type RowOf, TRANSACTION_OPTIONS } from "@cloudcost/db";
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

/** How long a claimed message is leased (longer than any delivery's deadline): another worker or replica skips it meanwhile. */
const LEASE = "interval '60 seconds'";

/**
 * Claims due messages of the given topics, in due order: each is leased (its next_attempt_at moves
 * forward), so another worker or replica skips it. A message waits while an earlier message of the
 * same aggregate is undelivered (a key's revocation never overtakes its provisioning). SKIP LOCKED
 * lets concurrent claims pass each other instead of queueing.
 */
const CLAIM_SQL = `UPDATE outbox AS o
       SET next_attempt_at = now() + ${LEASE}, leased_until = now() + ${LEASE}, attempts = o.attempts + 1
     WHERE (o.organization_id, o.id) IN (
       SELECT c.organization_id, c.id
         FROM outbox AS c
        WHERE c.delivered_at IS NULL
          AND c.topic = ANY($2::text[])
          AND c.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM outbox AS e
             WHERE e.organization_id = c.organization_id AND e.aggregate_id = c.aggregate_id
               AND e.delivered_at IS NULL AND e.id < c.id)
        ORDER BY c.next_attempt_at, c.id
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
    RETURNING o.organization_id AS "organizationId", o.id::text AS id, o.topic, o.payload, o.attempts`;

export function claimDue(prisma: Prisma, topics: string[], limit: number): Promise<OutboxMessage[]> {
  return prisma.$queryRawUnsafe<OutboxMessage[]>(CLAIM_SQL, limit, topics);
}

/** Serialises the fair claims of every replica (a transaction-scoped advisory lock, held for one claim). */
const FAIR_CLAIM_LOCK_CLASS = 0x6f627871;
const FAIR_CLAIM_LOCK_SQL = "SELECT pg_advisory_xact_lock($1, hashtext($2))";

/**
 * Claims due messages of one topic fairly between organizations: it walks the organizations with a
 * pending message of the topic (one index probe each), gives each at most its free slots (`$3`
 * less its messages leased now, on any replica) of its earliest due messages, and leases `$1` of
 * those, the organizations with the fewest in flight first. Whatever one organization has queued,
 * another's messages are claimed as soon as a slot of this worker is free. Claims of one topic are serialised (FAIR_CLAIM_LOCK_SQL),
 * so two replicas never both fill the same free slots.
 */
const FAIR_CLAIM_SQL = `WITH RECURSIVE orgs AS (
       (SELECT p.organization_id FROM outbox AS p
         WHERE p.delivered_at IS NULL AND p.topic = $2
         ORDER BY p.organization_id LIMIT 1)
       UNION ALL
       SELECT (SELECT p.organization_id FROM outbox AS p
                WHERE p.delivered_at IS NULL AND p.topic = $2 AND p.organization_id > orgs.organization_id
                ORDER BY p.organization_id LIMIT 1)
         FROM orgs WHERE orgs.organization_id IS NOT NULL
     ),
     picked AS (
       SELECT c.organization_id, c.id
         FROM orgs
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS busy FROM outbox AS l
           WHERE l.organization_id = orgs.organization_id AND l.topic = $2
             AND l.leased_until IS NOT NULL AND l.delivered_at IS NULL AND l.leased_until > now()) AS slots
        CROSS JOIN LATERAL (
          SELECT due.*, row_number() OVER (ORDER BY due.next_attempt_at, due.id) AS nth
            FROM (SELECT d.organization_id, d.id, d.next_attempt_at FROM outbox AS d
                   WHERE d.organization_id = orgs.organization_id AND d.topic = $2
                     AND d.delivered_at IS NULL AND d.next_attempt_at <= now()
                     AND NOT EXISTS (
                       SELECT 1 FROM outbox AS e
                        WHERE e.organization_id = d.organization_id AND e.aggregate_id = d.aggregate_id
                          AND e.delivered_at IS NULL AND e.id < d.id)
                   ORDER BY d.next_attempt_at, d.id
                   LIMIT greatest($3::int - slots.busy, 0)) AS due) AS c
        WHERE orgs.organization_id IS NOT NULL
        -- When this worker has fewer free slots than there are candidates, the organizations with
        -- the fewest deliveries in flight go first (each one's first message before anyone's second).
        ORDER BY slots.busy + c.nth, c.next_attempt_at, c.id
        LIMIT $1
     )
    UPDATE outbox AS o
       SET next_attempt_at = now() + ${LEASE}, leased_until = now() + ${LEASE}, attempts = o.attempts + 1
      FROM picked
     WHERE o.organization_id = picked.organization_id AND o.id = picked.id AND o.delivered_at IS NULL
    RETURNING o.organization_id AS "organizationId", o.id::text AS id, o.topic, o.payload, o.attempts`;

export function claimFair(prisma: Prisma, topic: string, limit: number, perOrganization: number): Promise<OutboxMessage[]> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(FAIR_CLAIM_LOCK_SQL, FAIR_CLAIM_LOCK_CLASS, topic);
    return tx.$queryRawUnsafe<OutboxMessage[]>(FAIR_CLAIM_SQL, limit, topic, perOrganization);
  }, TRANSACTION_OPTIONS);
}

export async function markDelivered(prisma: Prisma, message: OutboxMessage): Promise<void> {
  await prisma.outboxMessage.update({
    where: { organizationId_id: { organizationId: message.organizationId, id: BigInt(message.id) } },
    data: { deliveredAt: new Date(), lastError: null, leasedUntil: null },
  });
}

export async function markFailed(prisma: Prisma, message: OutboxMessage, error: string, retryInMs: number): Promise<void> {
  await prisma.outboxMessage.update({
    where: { organizationId_id: { organizationId: message.organizationId, id: BigInt(message.id) } },
    data: { nextAttemptAt: new Date(Date.now() + retryInMs), lastError: error.slice(0, 1000), leasedUntil: null },
  });
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "outbox claim", sql: CLAIM_SQL, columns: MESSAGE_COLUMNS },
    { name: "outbox fair claim lock", sql: FAIR_CLAIM_LOCK_SQL, columns: null },
    { name: "outbox fair claim", sql: FAIR_CLAIM_SQL, columns: MESSAGE_COLUMNS },
  ];
}
