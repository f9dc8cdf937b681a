import type { WebhookDeliveryType, WebhookEventType } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import type { Prisma as PrismaNs } from "../generated/prisma/client";
import { enqueue } from "../outbox/repository";
import type { Tx } from "../transactions";
import { insertDelivery, insertEvent, subscribedWebhookIds } from "./repository";

export const WEBHOOK_DELIVERY_TOPIC = "webhook.delivery";

/** What the outbox carries for a delivery: only its id (the body is built from the stored event). */
export interface DeliveryMessage {
  delivery_id: string;
}

/**
 * Records an event of the organization and queues one delivery per active webhook subscribed to
 * its type, in the caller's transaction: the event exists, and goes out, exactly when the change
 * that caused it commits. The caller kicks the outbox after the commit. Returns the event id.
 */
export async function emitWebhookEvent(
  tx: Tx,
  event: { organizationId: string; type: WebhookEventType; data: PrismaNs.InputJsonObject; id?: string },
): Promise<{ eventId: string; deliveries: number }> {
  const webhooks = await subscribedWebhookIds(tx, event.organizationId, event.type);
  const eventId = await recordEvent(tx, event.organizationId, event.type, event.data, event.id);
  for (const webhookId of webhooks) await queueDelivery(tx, event.organizationId, webhookId, eventId);
  return { eventId, deliveries: webhooks.length };
}

/** A `ping` to one webhook (POST .../test), whatever it subscribes to. */
export async function emitPing(tx: Tx, organizationId: string, webhookId: string): Promise<string> {
  const eventId = await recordEvent(tx, organizationId, "ping", { webhook_id: webhookId });
  return queueDelivery(tx, organizationId, webhookId, eventId);
}

/** A new event id (to store beside what caused the event, in the same transaction). */
export const newEventId = (): string => newId("evt");

async function recordEvent(tx: Tx, organizationId: string, type: WebhookDeliveryType, data: PrismaNs.InputJsonObject, id = newEventId()): Promise<string> {
  await insertEvent(tx, organizationId, id, type, data);
  return id;
}

async function queueDelivery(tx: Tx, organizationId: string, webhookId: string, eventId: string): Promise<string> {
  const id = newId("whd");
  await insertDelivery(tx, organizationId, id, webhookId, eventId);
  // Its own aggregate: one receiver that is down holds back none of the others.
  const payload: DeliveryMessage = { delivery_id: id };
  await enqueue(tx, { organizationId, topic: WEBHOOK_DELIVERY_TOPIC, aggregateId: id, payload: { ...payload } });
  return id;
}
