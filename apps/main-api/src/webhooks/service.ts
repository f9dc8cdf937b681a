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
import { badRequest, notFound } from "@cloudcost/http";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import type { Webhook, WebhookDelivery, WebhookDeliveryAttempt } from "../generated/prisma/client";
import { decodeCursor, toPage } from "../http/pagination";
import { assertMember } from "../organizations/access";
import { emitPing } from "./events";
import { newSigningSecret, type SecretBox } from "./secrets";
import { checkTarget, RefusedTarget, type Resolve } from "./targets";

export interface WebhookServiceDeps {
  prisma: Prisma;
  secrets: SecretBox;
  resolve: Resolve;
  allowInsecure: boolean;
}

/** Registers a webhook (owners and admins); the signing secret is in this answer only. */
export async function createWebhook(
  deps: WebhookServiceDeps,
  caller: Principal,
  organizationId: string,
  body: CreateWebhookRequest,
): Promise<CreateWebhookResponse> {
  assertMember(caller, organizationId);
  await assertTarget(deps, body.url);
  const id = newId("whk");
  const secret = newSigningSecret();
  const row = await deps.prisma.webhook.create({
    data: {
      organizationId,
      id,
      url: body.url,
      events: body.events,
      description: body.description || null,
      secretCiphertext: deps.secrets.seal(secret, organizationId, id),
    },
  });
  return { ...toWebhook(row), secret };
}

export async function listWebhooks(prisma: Prisma, caller: Principal, organizationId: string, query: PaginationQuery) {
  assertMember(caller, organizationId);
  const after = decodeCursor(query.cursor);
  const rows = await prisma.webhook.findMany({
    where: { organizationId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: query.limit + 1,
  });
  return toPage(rows, query.limit, toWebhook);
}

export async function getWebhook(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<WebhookBody> {
  assertMember(caller, organizationId);
  return toWebhook(await findWebhook(prisma, organizationId, id));
}

export async function updateWebhook(
  deps: WebhookServiceDeps,
  caller: Principal,
  organizationId: string,
  id: string,
  body: UpdateWebhookRequest,
): Promise<WebhookBody> {
  assertMember(caller, organizationId);
  if (body.url !== undefined) await assertTarget(deps, body.url);
  const { count } = await deps.prisma.webhook.updateMany({
    where: { organizationId, id },
    data: {
      url: body.url,
      events: body.events,
      description: body.description === undefined ? undefined : body.description || null,
      active: body.active,
      updatedAt: new Date(),
    },
  });
  if (count === 0) throw notFound(`Webhook ${id} is not in this organization.`);
  return toWebhook(await findWebhook(deps.prisma, organizationId, id));
}

/** Deletes a webhook with its deliveries and their attempts; queued deliveries find nothing to send. */
export async function deleteWebhook(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<void> {
  assertMember(caller, organizationId);
  const { count } = await prisma.webhook.deleteMany({ where: { organizationId, id } });
  if (count === 0) throw notFound(`Webhook ${id} is not in this organization.`);
}

/** Queues a `ping` to the webhook (also a paused one: it tests the receiver). The caller kicks the outbox. */
export async function testWebhook(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<WebhookDeliveryBody> {
  assertMember(caller, organizationId);
  const deliveryId = await prisma.$transaction(async (tx) => {
    await findWebhook(tx, organizationId, id);
    return emitPing(tx, organizationId, id);
  }, TRANSACTION_OPTIONS);
  const delivery = await prisma.webhookDelivery.findUniqueOrThrow({
    where: { organizationId_id: { organizationId, id: deliveryId } },
    include: { event: { select: { type: true } }, attempts: { orderBy: { attempt: "asc" } } },
  });
  return toDelivery(delivery);
}

/** The webhook's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  prisma: Prisma,
  caller: Principal,
  organizationId: string,
  webhookId: string,
  query: PaginationQuery,
): Promise<WebhookDeliveriesPage> {
  assertMember(caller, organizationId);
  await findWebhook(prisma, organizationId, webhookId);
  const before = decodeCursor(query.cursor);
  const rows = await prisma.webhookDelivery.findMany({
    where: { organizationId, webhookId, ...(before ? { id: { lt: before } } : {}) },
    include: { event: { select: { type: true } }, attempts: { orderBy: { attempt: "asc" } } },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return toPage(rows, query.limit, toDelivery);
}

async function findWebhook(prisma: Pick<Prisma, "webhook">, organizationId: string, id: string): Promise<Webhook> {
  const row = await prisma.webhook.findUnique({ where: { organizationId_id: { organizationId, id } } });
  if (!row) throw notFound(`Webhook ${id} is not in this organization.`);
  return row;
}

async function assertTarget(deps: WebhookServiceDeps, url: string): Promise<void> {
  if (deps.allowInsecure) return;
  try {
    await checkTarget(url, deps.resolve);
  } catch (err) {
    if (err instanceof RefusedTarget) throw badRequest(`Invalid webhook url: ${err.message}.`, [{ path: "url", message: err.message }]);
    throw err;
  }
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

type DeliveryRow = WebhookDelivery & { event: { type: string }; attempts: WebhookDeliveryAttempt[] };

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
