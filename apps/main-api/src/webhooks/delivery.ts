import { backoffDelay } from "@cloudcost/http";
import { z } from "zod";
import type { Prisma } from "../db";
import { RetryAfter, type OutboxHandler } from "../outbox/worker";
import type { SecretBox } from "./secrets";
import { postJson, type SendOptions } from "./sender";
import { signatureHeader } from "./signature";
import { WEBHOOK_DELIVERY_TOPIC } from "./events";
import { findDeliveryToSend, insertAttempt, settleDelivery } from "./repository";

export interface RetrySchedule {
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long after the event a failing delivery is still retried (at least 24 hours). */
  retryWindowMs: number;
}

/** The wait after failed attempt `attempt` (1-based): base x 2^(attempt-1), at most max (the outbox adds its jitter). */
export function retryDelayMs(attempt: number, schedule: Pick<RetrySchedule, "backoffBaseMs" | "backoffMaxMs">): number {
  return backoffDelay(attempt, { baseMs: schedule.backoffBaseMs, maxMs: schedule.backoffMaxMs });
}

const Message = z.object({ delivery_id: z.string() });

/**
 * The outbox handler of webhook deliveries: one attempt per call, logged with its status code,
 * duration and error. A 2xx delivers; anything else is retried after the schedule's delay until
 * the retry window (from the event's creation) ends, then the delivery is marked failed.
 */
export function webhookDeliveryHandlers(deps: {
  prisma: Prisma;
  secrets: SecretBox;
  send: SendOptions;
  schedule: RetrySchedule;
  now?: () => Date;
}): Record<string, OutboxHandler> {
  const { prisma, secrets, schedule } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    [WEBHOOK_DELIVERY_TOPIC]: async (payload, organizationId) => {
      const { delivery_id: id } = Message.parse(payload);
      const delivery = await findDeliveryToSend(prisma, organizationId, id);
      // Deleted with its webhook, or already settled: nothing left to send.
      if (delivery?.status !== "pending") return;
      const startedAt = now();
      if (startedAt.getTime() - delivery.event.createdAt.getTime() >= schedule.retryWindowMs) {
        await settleDelivery(prisma, organizationId, id, "failed", startedAt);
        return;
      }
      const { event, webhook } = delivery;
      const body = JSON.stringify({
        id: event.id,
        type: event.type,
        created_at: event.createdAt.toISOString(),
        organization_id: organizationId,
        data: event.data,
      });
      const secret = secrets.open(webhook.secretCiphertext, organizationId, webhook.id);
      const result = await postJson(webhook.url, body, { "webhook-signature": signatureHeader(secret, body, startedAt), "webhook-id": event.id }, deps.send);
      const attempt = delivery._count.attempts + 1;
      await insertAttempt(prisma, {
        organizationId,
        deliveryId: id,
        attempt,
        startedAt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
      });
      if (result.error === null) {
        await settleDelivery(prisma, organizationId, id, "delivered", now());
        return;
      }
      throw new RetryAfter(`webhook ${webhook.id} attempt ${attempt}: ${result.error}`, retryDelayMs(attempt, schedule));
    },
  };
}
