import type { OrganizationContext } from "../context";
import type {
  CreateWebhookRequest,
  CreateWebhookResponse,
  PaginationQuery,
  UpdateWebhookRequest,
  Webhook as WebhookBody,
  WebhookDeliveriesPage,
  WebhookDelivery as WebhookDeliveryBody,
  WebhookEventType,
} from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest, HttpError, notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import type { Webhook } from "../generated/prisma/client";
import { decodeCursor, toPage } from "../http/pagination";
import { emitPing } from "./events";
import type { DeliveryRow, WebhookRepository } from "./repository";
import { newSigningSecret, type SecretBox } from "./secrets";
import { checkTarget, RefusedTarget, type Resolve } from "./targets";

/** The most webhooks an organization may have (active or paused). */
export const MAX_WEBHOOKS = 20;
/** The most test pings one webhook may be sent in any minute. */
export const MAX_PINGS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

export interface WebhookServiceDeps {
  /** Opens the transactions; every query goes through `webhooks`. */
  prisma: Prisma;
  webhooks: WebhookRepository;
  secrets: SecretBox;
  resolve: Resolve;
  allowInsecure: boolean;
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/** The organization's webhooks (owners and admins; authorize checked the role and the organization). */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { prisma, webhooks } = deps;

  async function existingWebhook(db: Pick<Prisma, "webhook">, organizationId: string, id: string): Promise<Webhook> {
    const row = await webhooks.findWebhook(db, organizationId, id);
    if (!row) throw notFound(`Webhook ${id} is not in this organization.`);
    return row;
  }

  async function assertTarget(url: string): Promise<void> {
    if (deps.allowInsecure) return;
    try {
      await checkTarget(url, deps.resolve);
    } catch (err) {
      if (err instanceof RefusedTarget) throw badRequest(`Invalid webhook url: ${err.message}.`, [{ path: "url", message: err.message }]);
      throw err;
    }
  }

  return {
    /** Registers a webhook; the signing secret is in this answer only. */
    async createWebhook({ organization: { id: organizationId } }: OrganizationContext, body: CreateWebhookRequest): Promise<CreateWebhookResponse> {
      await assertTarget(body.url);
      const id = newId("whk");
      const secret = newSigningSecret();
      const row = await prisma.$transaction(async (tx) => {
        // Under the organization's registration lock: concurrent creations count one another.
        await webhooks.lockRegistrations(tx, organizationId);
        const held = await webhooks.countWebhooks(tx, organizationId);
        if (held >= MAX_WEBHOOKS)
          throw new HttpError(
            "limit_reached",
            `The organization has ${held} webhooks, at most ${MAX_WEBHOOKS} webhooks per organization: delete one (or reuse a paused one) before registering another.`,
          );
        return webhooks.insertWebhook(tx, {
          organizationId,
          id,
          url: body.url,
          events: body.events,
          description: body.description || null,
          secretCiphertext: deps.secrets.seal(secret, organizationId, id),
        });
      }, TRANSACTION_OPTIONS);
      return { ...toWebhook(row), secret };
    },

    async listWebhooks({ organization: { id: organizationId } }: OrganizationContext, query: PaginationQuery) {
      const after = decodeCursor(query.cursor);
      const rows = await webhooks.findWebhooks(prisma, organizationId, after, query.limit + 1);
      return toPage(rows, query.limit, toWebhook);
    },

    async getWebhook({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<WebhookBody> {
      return toWebhook(await existingWebhook(prisma, organizationId, id));
    },

    async updateWebhook({ organization: { id: organizationId } }: OrganizationContext, id: string, body: UpdateWebhookRequest): Promise<WebhookBody> {
      if (body.url !== undefined) await assertTarget(body.url);
      if ((await webhooks.updateWebhookRow(prisma, organizationId, id, body, new Date())) === 0) throw notFound(`Webhook ${id} is not in this organization.`);
      return toWebhook(await existingWebhook(prisma, organizationId, id));
    },

    /** Deletes a webhook with its deliveries and their attempts; queued deliveries find nothing to send. */
    async deleteWebhook({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<void> {
      if ((await webhooks.deleteWebhookRow(prisma, organizationId, id)) === 0) throw notFound(`Webhook ${id} is not in this organization.`);
    },

    /**
     * Queues a `ping` to the webhook (also a paused one: it tests the receiver), at most
     * MAX_PINGS_PER_MINUTE in any minute (429 with Retry-After beyond). The caller kicks the outbox.
     */
    async testWebhook({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<WebhookDeliveryBody> {
      const deliveryId = await prisma.$transaction(async (tx) => {
        await existingWebhook(tx, organizationId, id);
        // Under the webhook's ping lock: concurrent pings count one another.
        await webhooks.lockPings(tx, organizationId, id);
        const recent = await webhooks.recentPings(tx, organizationId, id, MINUTE_MS);
        if (recent.pings >= MAX_PINGS_PER_MINUTE) {
          const retryAfter = Math.min(60, Math.max(1, Math.ceil((recent.free_in_ms ?? MINUTE_MS) / 1000)));
          throw new HttpError(
            "rate_limited",
            `Webhook ${id} was sent ${recent.pings} test pings in the last minute, at most ${MAX_PINGS_PER_MINUTE} test pings a minute per webhook: retry after ${retryAfter} s.`,
            undefined,
            { "Retry-After": String(retryAfter) },
          );
        }
        return emitPing(tx, organizationId, id);
      }, TRANSACTION_OPTIONS);
      return toDelivery(await webhooks.findDelivery(prisma, organizationId, deliveryId));
    },

    /** The webhook's deliveries, newest first, each with its attempts. */
    async listDeliveries(
      { organization: { id: organizationId } }: OrganizationContext,
      webhookId: string,
      query: PaginationQuery,
    ): Promise<WebhookDeliveriesPage> {
      await existingWebhook(prisma, organizationId, webhookId);
      const before = decodeCursor(query.cursor);
      const rows = await webhooks.findDeliveries(prisma, organizationId, webhookId, before, query.limit + 1);
      return toPage(rows, query.limit, toDelivery);
    },
  };
}

function toWebhook(row: Webhook): WebhookBody {
  return {
    id: row.id,
    organization_id: row.organizationId,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    active: row.active,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toDelivery(row: DeliveryRow): WebhookDeliveryBody {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    type: row.event.type as WebhookDeliveryBody["type"],
    status: row.status as WebhookDeliveryBody["status"],
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    attempts: row.attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}
