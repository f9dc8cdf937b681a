import { loadServiceSecret } from "@cloudcost/credentials";
import type { Logger } from "pino";
import type { Config } from "../config";
import type { Prisma } from "../db";
import { pricingApiKeyHandlers } from "./pricing-api-keys";
import { OutboxWorker } from "./worker";

export { OutboxWorker };

/** The main API's outbox worker with every handler it delivers to (not started). */
export function createOutboxWorker(deps: { config: Config; prisma: Prisma; logger: Logger }): OutboxWorker {
  const secret = loadServiceSecret(deps.config.serviceTokenSecret, deps.config.dataRoot);
  return new OutboxWorker(deps.prisma, deps.logger, pricingApiKeyHandlers(deps.config.pricingApiUrl, secret), deps.config.outbox);
}
