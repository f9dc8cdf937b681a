import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import type { IdempotencyStore, Metrics, Redis } from "@cloudcost/http";
import type { ApiKeyStore } from "./auth/api-key-store";
import type { ComputeCatalogStore } from "./compute/catalog";
import type { Config } from "./config";
import type { ChangeFeed } from "@cloudcost/db";
import type { NegotiatedPriceCache } from "./compute-prices/negotiated";
import type { Prisma } from "./db";
import type { ServiceTokenJtis } from "./internal/service-token";

/** Everything the pricing API is built from, made once by `buildDeps` (compose.ts) and handed down. */
export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
  metrics: Metrics;
  apiKeys: ApiKeyStore;
  /** The secret the main API signs service tokens with. */
  serviceSecret: Uint8Array;
  /** The ids of service tokens already used (a replayed token is refused). */
  serviceTokenJtis: ServiceTokenJtis;
  /** The in-process compute catalog (empty until loaded: see compute/catalog-loader.ts). */
  computeCatalog: ComputeCatalogStore;
  idempotencyStore: IdempotencyStore;
  /** Tells every replica that a cached key, catalog or account's negotiated prices changed (LISTEN/NOTIFY). */
  changes: ChangeFeed;
  /** Each account's negotiated compute entries, for the compute query (keyed by account). */
  negotiated: NegotiatedPriceCache;
  /** The shared store of rate-limit counts (REDIS_URL); absent: each process counts its own. */
  redis?: Redis;
}
