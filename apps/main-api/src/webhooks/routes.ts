import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "./service";

/** A repeated creation (same Idempotency-Key) answers this 409: the secret is never stored to be replayed. */
export const webhookCreationReplay = (): string =>
  "This webhook was already created with this Idempotency-Key; its secret is shown only once: delete it if the secret was lost and create a new one.";

type WebhookOperation = "createWebhook" | "listWebhooks" | "getWebhook" | "updateWebhook" | "deleteWebhook" | "testWebhook" | "listWebhookDeliveries";

/** `/api/v1/organizations/{org_id}/webhooks`: owners and admins manage the organization's receivers (authorize checks the table's roles). */
export function webhookHandlers(deps: Pick<AppDeps, "prisma" | "outbox" | "webhooks" | "config">): Handlers<WebhookOperation> {
  const { prisma, outbox } = deps;
  const service = { prisma, ...deps.webhooks, allowInsecure: deps.config.webhooks.allowInsecure };
  return {
    createWebhook: async ({ params, body }, { principal }) =>
      created("Webhook created: store `secret` now, it is not shown again.", await createWebhook(service, principal, params.org_id, body)),
    listWebhooks: async ({ params, query }, { principal }) =>
      success("Webhooks of the organization.", await listWebhooks(prisma, principal, params.org_id, query)),
    getWebhook: async ({ params }, { principal }) => success("The webhook.", await getWebhook(prisma, principal, params.org_id, params.id)),
    updateWebhook: async ({ params, body }, { principal }) =>
      success("Webhook updated.", await updateWebhook(service, principal, params.org_id, params.id, body)),
    deleteWebhook: async ({ params }, { principal }) => {
      await deleteWebhook(prisma, principal, params.org_id, params.id);
      return { status: 204 };
    },
    testWebhook: async ({ params }, { principal }) => {
      const delivery = await testWebhook(prisma, principal, params.org_id, params.id);
      outbox.kick();
      return { status: 202, body: { message: "Ping queued: its attempts show in GET .../deliveries.", status: "success", data: delivery } };
    },
    listWebhookDeliveries: async ({ params, query }, { principal }) =>
      success("Deliveries of the webhook, newest first.", await listDeliveries(prisma, principal, params.org_id, params.id, query)),
  };
}
