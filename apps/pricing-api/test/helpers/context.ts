import type { Express } from "express";
import pino, { type Logger } from "pino";
import { createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { closeRedis, type Metrics } from "@cloudcost/http";
import { createApp } from "../../src/app";
import type { ApiKeyStore } from "../../src/auth/api-key-store";
import { buildDeps } from "../../src/compose";
import type { ComputeCatalogStore } from "../../src/compute/catalog";
import { loadSeedCatalog, refreshCatalogStore } from "../../src/compute/catalog-loader";
import { loadConfig, type Config } from "../../src/config";
import { MIGRATIONS_DIR, type Prisma } from "../../src/db";
import type { AppDeps } from "../../src/deps";

export const TEST_SERVICE_SECRET = new TextEncoder().encode("test-service-secret-".repeat(3));

export interface TestContext {
  app: Express;
  prisma: Prisma;
  db: TestDatabase;
  config: Config;
  /** Everything the app was built from (as server.ts builds it). */
  deps: AppDeps;
  /** The app's registry (served on the metrics port, not by `app`: `request(metrics.app())`). */
  metrics: Metrics;
  apiKeys: ApiKeyStore;
  computeCatalog: ComputeCatalogStore;
  close(): Promise<void>;
}

export interface TestContextOptions {
  /** Load the committed compute catalog seed (~20k rows) as the server does at start. */
  computeCatalog?: boolean;
  /** The app's logger (default: silent). */
  logger?: Logger;
}

/** The real app on a fresh, migrated database of its own (PGlite, or TEST_DATABASE_URL's server). */
export async function createTestContext(env: NodeJS.ProcessEnv = {}, options: TestContextOptions = {}): Promise<TestContext> {
  return contextOn(await createTestDatabase(MIGRATIONS_DIR), env, options);
}

/**
 * Another instance of the app on `of`'s database, as a second replica is: its own connections,
 * caches, change feed listener and rate limiter (on PGlite, one process, the one database).
 * Close it before `of`.
 */
export async function createReplicaContext(of: TestContext, env: NodeJS.ProcessEnv = {}, options: TestContextOptions = {}): Promise<TestContext> {
  const db = await of.db.reopen();
  return contextOn({ ...db, reopen: of.db.reopen }, env, options);
}

async function contextOn(db: TestDatabase, env: NodeJS.ProcessEnv, options: TestContextOptions): Promise<TestContext> {
  const config = loadConfig({ LOG_LEVEL: "silent", RATE_LIMIT_PER_IP: "0", RATE_LIMIT_PER_CREDENTIAL: "0", ...env });
  const deps = buildDeps({ config, db, logger: options.logger ?? pino({ level: "silent" }), serviceSecret: TEST_SERVICE_SECRET });
  const { prisma, apiKeys, computeCatalog, metrics, changes } = deps;
  await changes.start();
  if (options.computeCatalog) {
    await loadSeedCatalog({ db, prisma });
    await refreshCatalogStore({ db, prisma }, computeCatalog);
  }
  const app = createApp(deps);
  return {
    app,
    metrics,
    prisma,
    db,
    config,
    deps,
    apiKeys,
    computeCatalog,
    async close() {
      await apiKeys.stop();
      await changes.close();
      await prisma.$disconnect();
      await db.close();
      if (deps.redis) await closeRedis(deps.redis);
    },
  };
}
