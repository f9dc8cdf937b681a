import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import { connectRedis, createMetrics, sqlIdempotencyStore, type Metrics } from "@cloudcost/http";
import { loadDevIssuerKey } from "./auth/dev-issuer";
import { KeyUseRecorder } from "./auth/key-use";
import { createTokenVerifier } from "./auth/token-verifier";
import { createAnalyzer, type Analyzer } from "./compute/analysis";
import { instrumentAnalyzer, instrumentPricing } from "./compute/instrumentation";
import { createPricingClient } from "./compute/pricing-client";
import { resolvePricingKey } from "./compute/pricing-key";
import type { Config } from "./config";
import { createPrisma, type Prisma } from "./db";
import type { AppDeps } from "./deps";
import { createOutboxWorker } from "./outbox";

export interface Infrastructure {
  config: Config;
  /** An open, migrated database (the server's, or a test's own). */
  db: Database;
  logger: Logger;
  /** Default: a registry of the app's own. */
  metrics?: Metrics;
}

/**
 * The main API's composition root: builds every long-lived object once (used by server.ts and the
 * test context alike). Nothing is started here: the server starts the outbox and the schedule.
 */
export function buildDeps({ config, db, logger, metrics = createMetrics("main-api") }: Infrastructure): AppDeps {
  const prisma = createPrisma(db.adapter);
  const devIssuerKey = config.auth.devIssuer ? loadDevIssuerKey(config.auth.devIssuerDir) : undefined;
  return {
    config,
    db,
    prisma,
    logger,
    metrics,
    tokens: createTokenVerifier(config.auth, devIssuerKey),
    keyUse: new KeyUseRecorder(prisma, logger),
    devIssuerKey,
    idempotencyStore: sqlIdempotencyStore(db.sql),
    analyzer: buildAnalyzer({ config, db, prisma, logger, metrics }),
    outbox: createOutboxWorker({ config, prisma, logger }),
    redis: config.protection.redisUrl ? connectRedis(config.protection.redisUrl, logger) : undefined,
  };
}

function buildAnalyzer(deps: { config: Config; db: Database; prisma: Prisma; logger: Logger; metrics: Metrics }): Analyzer {
  const pricingKey = resolvePricingKey(deps.config);
  const pricing = createPricingClient({
    baseUrl: deps.config.pricingApiUrl,
    apiKey: pricingKey.key,
    onUnauthorized: () => pricingKey.provision(),
    timeoutMs: deps.config.pricingApiTimeoutMs,
    logger: deps.logger,
  });
  const analyzer = createAnalyzer({
    prisma: deps.prisma,
    db: deps.db,
    logger: deps.logger,
    pricing: instrumentPricing(pricing, deps.metrics),
    tailMarginMs: deps.config.analysisTailMarginMs,
  });
  return instrumentAnalyzer(analyzer, deps.metrics);
}
