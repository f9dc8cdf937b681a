import path from "node:path";
import type { DriverAdapterFactory } from "@cloudcost/db";
import { PrismaClient } from "./generated/prisma/client";

export const MIGRATIONS_DIR = path.resolve(__dirname, "../prisma/migrations");

export type Prisma = PrismaClient;

export function createPrisma(adapter: DriverAdapterFactory): PrismaClient {
  return new PrismaClient({ adapter });
}
