import type { Logger } from "pino";
import { loadServiceSecret } from "@cloudcost/credentials";
import type { Database } from "@cloudcost/db";
import { connectRedis, createMetrics, sqlIdempotencyStore, type Metrics } from "@cloudcost/http";
import { loadDevIssuerKey } from "./auth/dev-issuer";
import { KeyUseRecorder } from "./auth/key-use";
import { createTokenVerifier } from "./auth/token-verifier";
import { createAnalyzer, type Analyzer } from "./compute/analysis";
import { instrumentAnalyzer, instrumentCatalogs } from "./compute/instrumentation";
import { createComputeCatalogs } from "./compute/catalog-prices";
import { analyzerRepositories } from "./compute/services";
import type { Config } from "./config";
import { createPrisma, type Prisma } from "./db";
import type { AppDeps } from "./deps";
import { createDimensionApplier } from "./dimensions/apply";
import { createMainAdmission } from "./http/admission";
import { createVacuumSchedule } from "./compute/maintenance";
import { createOutboxWorker } from "./outbox";
import { createInternalPricingApi, type InternalPricingApi } from "./pricing/internal-client";
import { createSecretBox } from "./webhooks/secrets";
import { systemResolve, type Resolve } from "./webhooks/targets";

/** How often the server looks for dimension versions a restart left unapplied (a PUT applies its own at once). */
const DIMENSION_SWEEP_MS = 60_000;

export interface Infrastructure {
  config: Config;
  /** An open, migrated database (the server's, or a test's own). */
  db: Database;
  logger: Logger;
  /** Default: a registry of the app's own. */
  metrics?: Metrics;
  /** How webhook hosts resolve (default: the system resolver; tests answer chosen addresses). */
  resolve?: Resolve;
}

/**
 * The main API's composition root: builds every long-lived object once (used by server.ts and the
 * test context alike). Nothing is started here: the server starts the outbox and the schedule.
 */
export function buildDeps({ config, db, logger, metrics = createMetrics("main-api"), resolve = systemResolve }: Infrastructure): AppDeps {
  const prisma = createPrisma(db.adapter);
  const serviceSecret = loadServiceSecret(config.serviceTokenSecret, config.dataRoot);
  const webhookSecrets = createSecretBox(serviceSecret);
  const devIssuerKey = config.auth.devIssuer ? loadDevIssuerKey(config.auth.devIssuerDir) : undefined;
  const pricingApi = createInternalPricingApi({
    baseUrl: config.pricingApiUrl,
    serviceSecret,
    logger,
    timeoutMs: config.pricingApiTimeoutMs,
  });
  const outbox = createOutboxWorker({ config, prisma, logger, serviceSecret, webhookSecrets, resolve });
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
    analyzer: buildAnalyzer({ db, prisma, logger, metrics, pricingApi, tailMarginMs: config.analysisTailMarginMs }),
    outbox,
    dimensionApply: createDimensionApplier({ prisma, logger, outbox, intervalMs: DIMENSION_SWEEP_MS }),
    clock: () => new Date(),
    admission: createMainAdmission(config),
    vacuum: createVacuumSchedule({ db, logger, intervalMs: config.vacuum.intervalMs, afterRows: config.vacuum.afterRows }),
    webhooks: { secrets: webhookSecrets, resolve },
    pricingApi,
    redis: config.protection.redisUrl ? connectRedis(config.protection.redisUrl, logger) : undefined,
  };
}

function buildAnalyzer(deps: {
  db: Database;
  prisma: Prisma;
  logger: Logger;
  metrics: Metrics;
  pricingApi: InternalPricingApi;
  tailMarginMs: number;
}): Analyzer {
  const analyzer = createAnalyzer({
    prisma: deps.prisma,
    db: deps.db,
    logger: deps.logger,
    catalogs: instrumentCatalogs(createComputeCatalogs(deps.pricingApi, deps.logger), deps.metrics),
    repositories: analyzerRepositories,
    tailMarginMs: deps.tailMarginMs,
  });
  return instrumentAnalyzer(analyzer, deps.metrics);
}
