import type { Logger } from "pino";
import { loadServiceSecret } from "@cloudcost/credentials";
import { createChangeFeed, type Database } from "@cloudcost/db";
import { connectRedis, createMetrics, sqlIdempotencyStore, type Metrics } from "@cloudcost/http";
import { ApiKeyStore } from "./auth/api-key-store";
import { ComputeCatalogStore } from "./compute/catalog";
import { followCatalogChanges } from "./compute/catalog-loader";
import type { Config } from "./config";
import { createPrisma } from "./db";
import type { AppDeps } from "./deps";
import { serviceTokenJtis } from "./internal/service-token";
import { serviceTokenRepository } from "./internal/service-token-repository";
import { NegotiatedPriceCache } from "./compute-prices/negotiated";
import { liveComputePrices } from "./compute-prices/repository";

export interface Infrastructure {
  config: Config;
  /** An open, migrated database (the server's, or a test's own). */
  db: Database;
  logger: Logger;
  /** Default: the configured SERVICE_TOKEN_SECRET, or the one generated under `.data/`. */
  serviceSecret?: Uint8Array;
  /** Default: a registry of the app's own. */
  metrics?: Metrics;
}

/**
 * The pricing API's composition root: builds every long-lived object once (used by server.ts and
 * the test helpers alike). Nothing is started here: the server starts the key usage flush and the
 * change feed, and loads the compute catalog.
 */
export function buildDeps({ config, db, logger, serviceSecret, metrics = createMetrics("pricing-api") }: Infrastructure): AppDeps {
  const prisma = createPrisma(db.adapter);
  const changes = createChangeFeed(db, (err) => logger.warn({ err }, "change notification failed: other replicas see it when their cache expires"));
  const computeCatalog = new ComputeCatalogStore();
  followCatalogChanges({ db, prisma }, computeCatalog, changes, (err) => logger.error({ err }, "compute catalog refresh failed"));
  return {
    config,
    db,
    prisma,
    logger,
    metrics,
    changes,
    apiKeys: new ApiKeyStore(prisma, { changes }),
    negotiated: new NegotiatedPriceCache((accountId) => liveComputePrices(prisma, accountId), { changes }),
    serviceSecret: serviceSecret ?? loadServiceSecret(config.serviceTokenSecret, config.dataRoot),
    serviceTokenJtis: serviceTokenJtis({ sql: db.sql, tokens: serviceTokenRepository }),
    computeCatalog,
    idempotencyStore: sqlIdempotencyStore(db.sql),
    redis: config.protection.redisUrl ? connectRedis(config.protection.redisUrl, logger) : undefined,
  };
}
