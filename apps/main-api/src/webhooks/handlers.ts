import type { mainApiWebhookRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "./service";

/** A repeated creation (same Idempotency-Key) answers this 409: the secret is never stored to be replayed. */
export const webhookCreationReplay = (): string =>
  "This webhook was already created with this Idempotency-Key; its secret is shown only once: delete it if the secret was lost and create a new one.";

/** `/api/v1/organizations/{org_id}/webhooks`: owners and admins manage the organization's receivers (authorize checks the table's roles). */
export function webhookHandlers(deps: Pick<AppDeps, "prisma" | "outbox" | "webhooks" | "config">): Handlers<keyof typeof mainApiWebhookRoutes> {
  const { prisma, outbox } = deps;
  const service = { prisma, ...deps.webhooks, allowInsecure: deps.config.webhooks.allowInsecure };
  return {
    createWebhook: async ({ body }, ctx) => created("Webhook created: store `secret` now, it is not shown again.", await createWebhook(service, ctx, body)),
    listWebhooks: async ({ query }, ctx) => success("Webhooks of the organization.", await listWebhooks(prisma, ctx, query)),
    getWebhook: async ({ params }, ctx) => success("The webhook.", await getWebhook(prisma, ctx, params.id)),
    updateWebhook: async ({ params, body }, ctx) => success("Webhook updated.", await updateWebhook(service, ctx, params.id, body)),
    deleteWebhook: async ({ params }, ctx) => {
      await deleteWebhook(prisma, ctx, params.id);
      return { status: 204 };
    },
    testWebhook: async ({ params }, ctx) => {
      const delivery = await testWebhook(prisma, ctx, params.id);
      outbox.kick();
      return { status: 202, body: { message: "Ping queued: its attempts show in GET .../deliveries.", status: "success", data: delivery } };
    },
    listWebhookDeliveries: async ({ params, query }, ctx) =>
      success("Deliveries of the webhook, newest first.", await listDeliveries(prisma, ctx, params.id, query)),
  };
}
