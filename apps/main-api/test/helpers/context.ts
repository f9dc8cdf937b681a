import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Express } from "express";
import pino, { type Logger } from "pino";
import { createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { closeRedis, type Metrics } from "@cloudcost/http";
import { createApp } from "../../src/app";
import { buildDeps } from "../../src/compose";
import { loadConfig, type Config } from "../../src/config";
import { MIGRATIONS_DIR, SESSION_SETTINGS, type Prisma } from "../../src/db";
import type { AppDeps } from "../../src/deps";
import type { OutboxWorker } from "../../src/outbox";
import type { Resolve } from "../../src/webhooks/targets";

export const TEST_SERVICE_TOKEN_SECRET = "test-service-secret-".repeat(3);

export interface TestContext {
  app: Express;
  prisma: Prisma;
  db: TestDatabase;
  config: Config;
  /** Everything the app was built from (as server.ts builds it). */
  deps: AppDeps;
  /** The app's registry (served on the metrics port, not by `app`: `request(metrics.app())`). */
  metrics: Metrics;
  /** Not started: tests call `drain()`, or `start()` with a short OUTBOX_POLL_MS. */
  outbox: OutboxWorker;
  close(): Promise<void>;
}

/**
 * The real app on a fresh, migrated database of its own (PGlite, or TEST_DATABASE_URL's server),
 * with a development issuer whose key lives in a temporary directory. The pricing API URL points at
 * a closed port unless a test passes PRICING_API_URL.
 */
export async function createTestContext(env: NodeJS.ProcessEnv = {}, options: { logger?: Logger; resolve?: Resolve } = {}): Promise<TestContext> {
  const db = await createTestDatabase(MIGRATIONS_DIR, SESSION_SETTINGS);
  const issuerDir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-dev-issuer-"));
  const ctx = contextOn(db, issuerDir, env, options);
  return {
    ...ctx,
    async close() {
      await ctx.close();
      fs.rmSync(issuerDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another instance of the app on `of`'s database and development issuer, as a second replica is:
 * its own connections, outbox worker, analyzer and rate limiter (on PGlite, one process, the one
 * database). Close it before `of`.
 */
export async function createReplicaContext(
  of: TestContext,
  env: NodeJS.ProcessEnv = {},
  options: { logger?: Logger; resolve?: Resolve } = {},
): Promise<TestContext> {
  const db = await of.db.reopen();
  return contextOn({ ...db, reopen: of.db.reopen }, of.config.auth.devIssuerDir, env, options);
}

function contextOn(db: TestDatabase, issuerDir: string, env: NodeJS.ProcessEnv, options: { logger?: Logger; resolve?: Resolve }): TestContext {
  const config = loadConfig({
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_IP: "0",
    RATE_LIMIT_PER_CREDENTIAL: "0",
    MAIN_API_DEV_ISSUER_DIR: issuerDir,
    PRICING_API_URL: "http://127.0.0.1:1",
    SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
    WEBHOOK_ALLOW_INSECURE: "1",
    ...env,
  });
  const logger = options.logger ?? pino({ level: "silent" });
  const deps = buildDeps({ config, db, logger, resolve: options.resolve });
  const { prisma, outbox, metrics } = deps;
  const app = createApp(deps);
  return {
    app,
    metrics,
    prisma,
    db,
    config,
    deps,
    outbox,
    async close() {
      await deps.dimensionApply.stop();
      await outbox.stop();
      await prisma.$disconnect();
      await db.close();
      if (deps.redis) await closeRedis(deps.redis);
    },
  };
}
