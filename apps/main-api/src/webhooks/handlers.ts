import type { mainApiWebhookRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { webhookRepository } from "./repository";
import { createWebhookService } from "./service";

/** A repeated creation (same Idempotency-Key) answers this 409: the secret is never stored to be replayed. */
export const webhookCreationReplay = (): string =>
  "This webhook was already created with this Idempotency-Key; its secret is shown only once: delete it if the secret was lost and create a new one.";

/** `/api/v1/organizations/{org_id}/webhooks`: owners and admins manage the organization's receivers (authorize checks the table's roles). */
export function webhookHandlers(deps: Pick<AppDeps, "prisma" | "outbox" | "webhooks" | "config">): Handlers<keyof typeof mainApiWebhookRoutes> {
  const { outbox } = deps;
  const webhooks = createWebhookService({
    prisma: deps.prisma,
    webhooks: webhookRepository,
    ...deps.webhooks,
    allowInsecure: deps.config.webhooks.allowInsecure,
  });
  return {
    createWebhook: async ({ body }, ctx) => created("Webhook created: store `secret` now, it is not shown again.", await webhooks.createWebhook(ctx, body)),
    listWebhooks: async ({ query }, ctx) => success("Webhooks of the organization.", await webhooks.listWebhooks(ctx, query)),
    getWebhook: async ({ params }, ctx) => success("The webhook.", await webhooks.getWebhook(ctx, params.id)),
    updateWebhook: async ({ params, body }, ctx) => success("Webhook updated.", await webhooks.updateWebhook(ctx, params.id, body)),
    deleteWebhook: async ({ params }, ctx) => {
      await webhooks.deleteWebhook(ctx, params.id);
      return { status: 204 };
    },
    testWebhook: async ({ params }, ctx) => {
      const delivery = await webhooks.testWebhook(ctx, params.id);
      outbox.kick();
      return { status: 202, body: { message: "Ping queued: its attempts show in GET .../deliveries.", status: "success", data: delivery } };
    },
    listWebhookDeliveries: async ({ params, query }, ctx) =>
      success("Deliveries of the webhook, newest first.", await webhooks.listDeliveries(ctx, params.id, query)),
  };
}
