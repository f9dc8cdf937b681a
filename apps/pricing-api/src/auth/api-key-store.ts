import type { PricingKeyRole } from "@cloudcost/contracts";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@cloudcost/credentials";
import { newId, type ChangeFeed } from "@cloudcost/db";
import { type Periodic, startPeriodic } from "@cloudcost/http";
import type { Prisma } from "../db";
import type { ApiKey } from "../generated/prisma/client";
import { ensureAccount, findKey, findKeyState, insertKey, touchKey, updateKey } from "./api-key-repository";

export interface ApiKeyIdentity {
  accountId: string;
  keyId: string;
  /** What the key may do (auth/authorize.ts): the main API syncs its keys' effective roles. */
  role: PricingKeyRole;
}

interface ProvisionInput {
  accountId: string;
  id?: string;
  keyHash: string;
  prefix: string;
  name?: string | null;
  /** Absent: a new key is admin, an existing key keeps its role. */
  role?: PricingKeyRole;
  suspended?: boolean;
}

const CACHE_TTL_MS = 30_000;
// An unknown key may be provisioned a moment later (the main API's outbox delivers within seconds,
// possibly to another replica): remember a rejection only briefly.
const UNKNOWN_KEY_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 10_000;
const TOUCH_INTERVAL_MS = 60_000;
/** The change feed's topic: the key hash whose row changed. */
export const API_KEY_CHANGED = "pricing.api_key";

/**
 * API keys by hash. Verified keys are cached for 30 s so a hot request path does no key lookup;
 * a revocation, suspension, role change or provisioning takes effect at once in this process and,
 * through the change feed, in every other replica as soon as it hears of it (the TTL stays as the
 * safety net for a missed notification).
 * `last_used_at` is written in the background at most once a minute per key, never on the request path.
 */
export class ApiKeyStore {
  private cache = new Map<string, { identity: ApiKeyIdentity | null; expires: number }>();
  private usedSince = new Map<string, { identity: ApiKeyIdentity; at: number }>();
  // Bumped when a key's state changes here: a lookup that read the row before the change does not
  // cache what it read.
  private changes = new Map<string, number>();
  // Bumped when notifications may have been missed: no lookup in flight then caches its answer.
  private epoch = 0;
  private usageFlush?: Periodic;

  private readonly maxCacheEntries: number;
  private readonly changeFeed?: ChangeFeed;

  constructor(
    private readonly prisma: Prisma,
    options: { changes?: ChangeFeed; maxCacheEntries?: number } = {},
  ) {
    this.maxCacheEntries = options.maxCacheEntries ?? CACHE_MAX_ENTRIES;
    this.changeFeed = options.changes;
    this.changeFeed?.subscribe(API_KEY_CHANGED, (keyHash) => (keyHash === null ? this.forgetAll() : this.invalidate(keyHash)));
  }

  private evictExpired(now: number): void {
    for (const [hash, cached] of this.cache) if (cached.expires < now) this.cache.delete(hash);
    if (this.cache.size >= this.maxCacheEntries) this.cache.clear();
  }

  /**
   * The identity of a key the cache already holds (null: known to be unknown or revoked), or
   * undefined when it must be looked up: lets the hot path skip a promise per request.
   */
  cached(keyHash: string, now = Date.now()): ApiKeyIdentity | null | undefined {
    const entry = this.cache.get(keyHash);
    if (!entry || entry.expires < now) return undefined;
    if (entry.identity) this.markUsed(keyHash, entry.identity, now);
    return entry.identity;
  }

  async verify(key: string): Promise<ApiKeyIdentity | null> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = this.cached(hash, now);
    if (hit !== undefined) return hit;
    return this.lookup(hash, now);
  }

  /** Reads the key from the database and caches the answer. */
  async lookup(keyHash: string, now = Date.now()): Promise<ApiKeyIdentity | null> {
    const changesBefore = this.changes.get(keyHash);
    const epochBefore = this.epoch;
    const row = await findKeyState(this.prisma, keyHash);
    const identity = row && !row.revokedAt && !row.suspended ? { accountId: row.accountId, keyId: row.id, role: row.role } : null;
    // Made-up keys (anyone can compute a valid checksum) must not grow the cache without bound.
    if (this.cache.size >= this.maxCacheEntries) this.evictExpired(now);
    if (this.changes.get(keyHash) === changesBefore && this.epoch === epochBefore)
      this.cache.set(keyHash, { identity, expires: now + (row ? CACHE_TTL_MS : UNKNOWN_KEY_TTL_MS) });
    if (identity) this.markUsed(keyHash, identity, now);
    return identity;
  }

  /** Forgets the cached answer for a key whose state changed (and any lookup racing the change). */
  private invalidate(keyHash: string): void {
    this.cache.delete(keyHash);
    this.changes.set(keyHash, (this.changes.get(keyHash) ?? 0) + 1);
  }

  /** Notifications may have been missed: every cached answer goes (the next request of each key looks it up). */
  private forgetAll(): void {
    this.epoch++;
    this.cache.clear();
  }

  /** After a change committed: forgets it here and tells the other replicas. */
  private async changed(keyHash: string): Promise<void> {
    this.invalidate(keyHash);
    await this.changeFeed?.publish(API_KEY_CHANGED, keyHash);
  }

  private markUsed(keyHash: string, identity: ApiKeyIdentity, now: number): void {
    const used = this.usedSince.get(keyHash);
    if (used) used.at = now;
    else this.usedSince.set(keyHash, { identity, at: now });
  }

  /** Creates a key for `accountId` (creating the account on first use); returns the plaintext once. */
  async create(accountId: string, name: string | null | undefined): Promise<{ key: string; record: ApiKey }> {
    const key = generateApiKey();
    const record = await this.insert({ accountId, id: newId("key"), keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key), name });
    return { key, record };
  }

  /**
   * Registers a key issued elsewhere (the main API) by its hash, or updates its name, role and
   * suspension when it exists (the main API re-sends a key when its creator changes); repeating it
   * is harmless. The cached answer for the key is dropped, so the change holds at once here.
   */
  async provision(input: ProvisionInput) {
    // A client may have tried the key before it was delivered: forget that cached answer.
    this.invalidate(input.keyHash);
    const existing = await findKey(this.prisma, input.keyHash);
    if (existing) {
      if (existing.accountId !== input.accountId) return { record: existing, created: false, conflict: true };
      const record = await updateKey(this.prisma, input.keyHash, {
        name: input.name === undefined ? undefined : input.name,
        role: input.role,
        suspended: input.suspended,
      });
      await this.changed(input.keyHash);
      return { record, created: false, conflict: false };
    }
    const record = await this.insert({ ...input, id: input.id ?? newId("key") }).catch(async (err) => {
      // A concurrent provision of the same hash won the race: answer with its row.
      const raced = await findKey(this.prisma, input.keyHash);
      if (raced) return raced;
      throw err;
    });
    return { record, created: true, conflict: record.accountId !== input.accountId };
  }

  /** Revokes by hash; returns the row, or null when no key has that hash. */
  async revokeByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await findKey(this.prisma, keyHash);
    if (!row) return null;
    this.invalidate(keyHash);
    if (row.revokedAt) return row;
    const revoked = await updateKey(this.prisma, keyHash, { revokedAt: new Date() });
    await this.changed(keyHash);
    return revoked;
  }

  private async insert(data: ProvisionInput & { id: string }) {
    const record = await this.prisma.$transaction(async (tx) => {
      await ensureAccount(tx, data.accountId);
      return insertKey(tx, { ...data, name: data.name ?? null });
    });
    await this.changed(data.keyHash); // a client may have tried the key before it arrived, here or elsewhere
    return record;
  }

  /** Writes the pending last_used_at values (one statement per key, at most once a minute). */
  async flushUsage(): Promise<void> {
    const pending = [...this.usedSince.values()];
    this.usedSince.clear();
    for (const { identity, at } of pending) {
      await touchKey(this.prisma, identity.accountId, identity.keyId, new Date(at)).catch(() => undefined);
    }
  }

  startUsageFlush(): void {
    this.usageFlush = startPeriodic({ intervalMs: TOUCH_INTERVAL_MS, run: () => this.flushUsage(), onError: () => undefined });
  }

  async stop(): Promise<void> {
    await this.usageFlush?.stop();
    this.usageFlush = undefined;
    await this.flushUsage();
  }
}
