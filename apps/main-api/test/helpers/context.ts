import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Express } from "express";
import pino from "pino";
import type { Database } from "@cloudcost/db";
import { createTestDatabase } from "@cloudcost/db/testing";
import { createApp } from "../../src/app";
import { loadConfig, type Config } from "../../src/config";
import { createPrisma, MIGRATIONS_DIR, type Prisma } from "../../src/db";

export interface TestContext {
  app: Express;
  prisma: Prisma;
  db: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * The real app on a fresh, migrated database of its own (PGlite, or TEST_DATABASE_URL's server),
 * with a development issuer whose key lives in a temporary directory.
 */
export async function createTestContext(env: NodeJS.ProcessEnv = {}): Promise<TestContext> {
  const db = await createTestDatabase(MIGRATIONS_DIR);
  const prisma = createPrisma(db.adapter);
  const issuerDir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-dev-issuer-"));
  const config = loadConfig({ LOG_LEVEL: "silent", MAIN_API_DEV_ISSUER_DIR: issuerDir, ...env });
  const app = createApp({ config, db, prisma, logger: pino({ level: "silent" }) });
  return {
    app,
    prisma,
    db,
    config,
    async close() {
      await prisma.$disconnect();
      await db.close();
      fs.rmSync(issuerDir, { recursive: true, force: true });
    },
  };
}
