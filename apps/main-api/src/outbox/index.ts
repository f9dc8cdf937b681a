import type { Logger } from "pino";
import type { Config } from "../config";
import type { Prisma } from "../db";
import { webhookDeliveryHandlers } from "../webhooks/delivery";
import type { SecretBox } from "../webhooks/secrets";
import type { Resolve } from "../webhooks/targets";
import { pricingApiKeyHandlers } from "./pricing-api-keys";
import { OutboxWorker } from "./worker";

export { OutboxWorker };

/**
 * The main API's outbox worker with every handler it delivers to (not started): one mechanism, two
 * kinds of messages (API keys mirrored to the pricing API, and webhook deliveries).
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
    config.outbox,
  );
}
