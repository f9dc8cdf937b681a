import path from "node:path";
import type { DriverAdapterFactory } from "@cloudcost/db";
import { PrismaClient } from "./generated/prisma/client";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../prisma/migrations");

export type Prisma = PrismaClient;

/**
 * Every session of the main API plans for SSD storage (random_page_cost 1.1, not the default 4 of
 * spinning disks, which prices the summary's covering index-only scans above a slower sequential
 * scan of the wider table) and without parallel workers: it serves many small concurrent requests
 * beside the analysis cycle, and workers cost more to start than they save on one tenant's rows
 * (docs/performance.md, "Planner settings"). Nor does it compile statements (JIT): a budget status
 * or anomaly detection over a large tenant passes the cost at which PostgreSQL would, and compiling
 * takes far longer than running them. Sent as connection startup options, so no statement pays a
 * round trip for them.
 */
export const SESSION_SETTINGS = { random_page_cost: 1.1, max_parallel_workers_per_gather: 0, jit: "off" } as const;

export function createPrisma(adapter: DriverAdapterFactory): PrismaClient {
  return new PrismaClient({ adapter });
}
