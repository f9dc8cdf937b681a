import type { Logger } from "pino";
import type { Config } from "../config";
import type { Prisma } from "../db";
import { webhookDeliveryHandlers } from "../webhooks/delivery";
import type { SecretBox } from "../webhooks/secrets";
import type { Resolve } from "../webhooks/targets";
import { WEBHOOK_DELIVERY_TOPIC } from "../webhooks/events";
import { PROVISION_TOPIC, pricingApiKeyHandlers, REVOKE_TOPIC } from "./pricing-api-keys";
import { OutboxWorker, type OutboxQueue } from "./worker";

export { OutboxWorker };

/** Webhook deliveries in flight at once: per organization (on all replicas together), and per process. */
export const WEBHOOK_CONCURRENCY = { perOrganization: 4, total: 64 } as const;

/**
 * The main API's queues, each delivered by its own loop: API keys mirrored to the pricing API never
 * wait behind webhook deliveries, whose receivers may take their whole deadline to answer (or not).
 */
export const OUTBOX_QUEUES: OutboxQueue[] = [
  { name: "pricing-api-keys", topics: [PROVISION_TOPIC, REVOKE_TOPIC] },
  { name: "webhooks", topics: [WEBHOOK_DELIVERY_TOPIC], concurrency: WEBHOOK_CONCURRENCY },
];

/**
 * The main API's outbox worker with every handler it delivers to (not started): one mechanism, two
 * queues (API keys mirrored to the pricing API, and webhook deliveries).
 */
export function createOutboxWorker(deps: {
  config: Config;
  prisma: Prisma;
  logger: Logger;
  serviceSecret: Uint8Array;
  webhookSecrets: SecretBox;
  resolve: Resolve;
}): OutboxWorker {
  const { config, prisma } = deps;
  const { allowInsecure, timeoutMs, ...schedule } = config.webhooks;
  return new OutboxWorker(
    prisma,
    deps.logger,
    {
      ...pricingApiKeyHandlers(config.pricingApiUrl, deps.serviceSecret),
      ...webhookDeliveryHandlers({ prisma, secrets: deps.webhookSecrets, send: { allowInsecure, timeoutMs, resolve: deps.resolve }, schedule }),
    },
    { ...config.outbox, queues: OUTBOX_QUEUES },
  );
}
