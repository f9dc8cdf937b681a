import { createHash } from "node:crypto";
import Decimal from "decimal.js";
import { isSerializationFailure, isUniqueViolation, TRANSACTION_OPTIONS } from "@cloudcost/db";
import type { Prisma } from "../db";

/** What the stores need from Prisma: the client itself or an interactive transaction. */
export interface Sql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** Runs `fn` in a transaction, retrying a few times when a concurrent writer won a unique race. */
export async function inTransaction<T>(prisma: Prisma, fn: (tx: Sql) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction((tx) => fn(tx), TRANSACTION_OPTIONS);
    } catch (err) {
      if (attempt >= attempts || !(isUniqueViolation(err) || isSerializationFailure(err))) throw err;
    }
  }
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A signed 64-bit advisory lock key for `text` (sha256-derived; collisions only serialise more). */
export function lockKey(text: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${sha256(`cloudcost-pricing:${text}`).slice(0, 16)}`));
}

/** Takes transaction-scoped advisory locks on all keys, in ascending order (no deadlocks). */
export async function lockAll(tx: Sql, keys: Iterable<string>): Promise<void> {
  const sorted = [...new Set([...keys].map(lockKey))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.length === 0) return;
  await tx.$queryRawUnsafe(
    `SELECT count(pg_advisory_xact_lock(k.key::bigint)::text)::int AS n FROM jsonb_array_elements_text($1::jsonb) AS k(key)`,
    JSON.stringify(sorted.map(String)),
  );
}

/** '' for absent identity/key parts (how they are stored and indexed); null back out. */
export const keyIn = (value: string | null | undefined): string => value ?? "";
export const keyOut = (value: string): string | null => (value === "" ? null : value);

export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  return value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();
}

/** An amount as stored in numeric(30,12): rounded half-up to 12 decimal places (text, exact). */
export const storedAmount = (value: number): string => new Decimal(value).toDecimalPlaces(12, Decimal.ROUND_HALF_UP).toFixed();

/** numeric columns are selected as text and turned into exact JSON numbers here. */
export function num(value: string): number;
export function num(value: string | null): number | null;
export function num(value: string | null): number | null {
  return value === null ? null : Number(value);
}
