import type { UpdateWebhookRequest, WebhookDeliveryType, WebhookEventType } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { Prisma as Models, Webhook, WebhookDelivery, WebhookDeliveryAttempt } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

export function insertWebhook(db: Db, data: Models.WebhookUncheckedCreateInput): Promise<Webhook> {
  return db.webhook.create({ data });
}

/** A page of the organization's webhooks by id: `limit` rows after the id `after`. */
export function findWebhooks(db: Db, organizationId: string, after: string | undefined, limit: number): Promise<Webhook[]> {
  return db.webhook.findMany({
    where: { organizationId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
  });
}

export function findWebhook(db: Pick<Db, "webhook">, organizationId: string, id: string): Promise<Webhook | null> {
  return db.webhook.findUnique({ where: { organizationId_id: { organizationId, id } } });
}

/** Changes the fields sent; returns how many rows changed (0: not in this organization). */
export async function updateWebhookRow(db: Db, organizationId: string, id: string, body: UpdateWebhookRequest, now: Date): Promise<number> {
  const { count } = await db.webhook.updateMany({
    where: { organizationId, id },
    data: {
      url: body.url,
      events: body.events,
      description: body.description === undefined ? undefined : body.description || null,
      active: body.active,
      updatedAt: now,
    },
  });
  return count;
}

/** Deletes the webhook (its deliveries and their attempts go with it); returns how many rows went. */
export async function deleteWebhookRow(db: Db, organizationId: string, id: string): Promise<number> {
  const { count } = await db.webhook.deleteMany({ where: { organizationId, id } });
  return count;
}

/** The ids of the organization's active webhooks subscribed to `type`. */
export async function subscribedWebhookIds(tx: Tx, organizationId: string, type: WebhookEventType): Promise<string[]> {
  const rows = await tx.webhook.findMany({ where: { organizationId, active: true, events: { has: type } }, select: { id: true } });
  return rows.map((row) => row.id);
}

export async function insertEvent(tx: Tx, organizationId: string, id: string, type: WebhookDeliveryType, data: Models.InputJsonObject): Promise<void> {
  await tx.webhookEvent.create({ data: { organizationId, id, type, data } });
}

export async function insertDelivery(tx: Tx, organizationId: string, id: string, webhookId: string, eventId: string): Promise<void> {
  await tx.webhookDelivery.create({ data: { organizationId, id, webhookId, eventId } });
}

export type DeliveryRow = WebhookDelivery & { event: { type: string }; attempts: WebhookDeliveryAttempt[] };

const WITH_ATTEMPTS = { event: { select: { type: true } }, attempts: { orderBy: { attempt: "asc" } } } as const;

export function findDelivery(db: Db, organizationId: string, id: string): Promise<DeliveryRow> {
  return db.webhookDelivery.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id } }, include: WITH_ATTEMPTS });
}

/** A page of the webhook's deliveries, newest first: `limit` rows before the id `before`. */
export function findDeliveries(db: Db, organizationId: string, webhookId: string, before: string | undefined, limit: number): Promise<DeliveryRow[]> {
  return db.webhookDelivery.findMany({
    where: { organizationId, webhookId, ...(before ? { id: { lt: before } } : {}) },
    include: WITH_ATTEMPTS,
    orderBy: { id: "desc" },
    take: limit,
  });
}

/** A delivery with what sending it needs: its webhook, its event and how many attempts it has. */
export function findDeliveryToSend(db: Db, organizationId: string, id: string) {
  return db.webhookDelivery.findUnique({
    where: { organizationId_id: { organizationId, id } },
    include: { webhook: true, event: true, _count: { select: { attempts: true } } },
  });
}

export async function insertAttempt(db: Db, data: Models.WebhookDeliveryAttemptUncheckedCreateInput): Promise<void> {
  await db.webhookDeliveryAttempt.create({ data });
}

/** Marks a pending delivery delivered or failed (a settled one stays as it is). */
export async function settleDelivery(db: Db, organizationId: string, id: string, status: "delivered" | "failed", at: Date): Promise<void> {
  await db.webhookDelivery.updateMany({ where: { organizationId, id, status: "pending" }, data: { status, finishedAt: at } });
}

/** Advisory lock classes: an organization's webhook registrations, and one webhook's test pings. */
const REGISTRATION_LOCK_CLASS = 0x77686b72;
const PING_LOCK_CLASS = 0x77686b70;
const LOCK_SQL = "SELECT pg_advisory_xact_lock($1, hashtext($2))";

/** Holds the organization's webhook registrations until the transaction ends (so a count and the insert after it are not raced). */
export async function lockRegistrations(tx: Tx, organizationId: string): Promise<void> {
  await tx.$executeRawUnsafe(LOCK_SQL, REGISTRATION_LOCK_CLASS, organizationId);
}

/** Holds the webhook's test pings until the transaction ends. */
export async function lockPings(tx: Tx, organizationId: string, webhookId: string): Promise<void> {
  await tx.$executeRawUnsafe(LOCK_SQL, PING_LOCK_CLASS, `${organizationId}/${webhookId}`);
}

export function countWebhooks(db: Db, organizationId: string): Promise<number> {
  return db.webhook.count({ where: { organizationId } });
}

const RECENT_PINGS_COLUMNS = { pings: "int4", free_in_ms: "int4 null" } as const;
/**
 * The webhook's pings queued in the last `$3` milliseconds (by the database's clock), and in how many
 * milliseconds the oldest of them leaves that window.
 */
const RECENT_PINGS_SQL = `SELECT count(*)::int4 AS pings,
            ceil(extract(epoch FROM min(d.created_at) + $3::int4 * interval '1 millisecond' - now()) * 1000)::int4 AS free_in_ms
       FROM webhook_deliveries AS d
       JOIN webhook_events AS e ON e.organization_id = d.organization_id AND e.id = d.event_id
      WHERE d.organization_id = $1 AND d.webhook_id = $2 AND e.type = 'ping'
        AND d.created_at > now() - $3::int4 * interval '1 millisecond'`;

export async function recentPings(db: Db, organizationId: string, webhookId: string, windowMs: number): Promise<RowOf<typeof RECENT_PINGS_COLUMNS>> {
  const [row] = await db.$queryRawUnsafe<RowOf<typeof RECENT_PINGS_COLUMNS>[]>(RECENT_PINGS_SQL, organizationId, webhookId, windowMs);
  return row;
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "webhooks lock", sql: LOCK_SQL, columns: null },
    { name: "webhooks recent pings", sql: RECENT_PINGS_SQL, columns: RECENT_PINGS_COLUMNS },
  ];
}

/** What the webhook service reads and writes; each function takes the client or the transaction it runs in. */
export const webhookRepository = {
  insertWebhook,
  findWebhooks,
  findWebhook,
  updateWebhookRow,
  deleteWebhookRow,
  findDelivery,
  findDeliveries,
  lockRegistrations,
  lockPings,
  countWebhooks,
  recentPings,
};
export type WebhookRepository = typeof webhookRepository;
