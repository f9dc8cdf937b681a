import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@cloudcost/credentials";
import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { ApiKey } from "../generated/prisma/client";

export interface ApiKeyIdentity {
  accountId: string;
  keyId: string;
}

const CACHE_TTL_MS = 30_000;
// An unknown key may be provisioned a moment later (the main API's outbox delivers within seconds,
// possibly to another replica): remember a rejection only briefly.
const UNKNOWN_KEY_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 10_000;
const TOUCH_INTERVAL_MS = 60_000;

/**
 * API keys by hash. Verified keys are cached for 30 s so a hot request path does no key lookup;
 * a revocation through this process takes effect at once, through another replica within 30 s.
 * `last_used_at` is written in the background at most once a minute per key, never on the request path.
 */
export class ApiKeyStore {
  private cache = new Map<string, { identity: ApiKeyIdentity | null; expires: number }>();
  private usedSince = new Map<string, { identity: ApiKeyIdentity; at: number }>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly prisma: Prisma,
    private readonly maxCacheEntries = CACHE_MAX_ENTRIES,
  ) {}

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
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash },
      select: { accountId: true, id: true, revokedAt: true },
    });
    const identity = row && !row.revokedAt ? { accountId: row.accountId, keyId: row.id } : null;
    // Made-up keys (anyone can compute a valid checksum) must not grow the cache without bound.
    if (this.cache.size >= this.maxCacheEntries) this.evictExpired(now);
    this.cache.set(keyHash, { identity, expires: now + (row ? CACHE_TTL_MS : UNKNOWN_KEY_TTL_MS) });
    if (identity) this.markUsed(keyHash, identity, now);
    return identity;
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

  /** Registers a key issued elsewhere (the main API) by its hash; repeating it is harmless. */
  async provision(input: { accountId: string; id?: string; keyHash: string; prefix: string; name?: string | null }) {
    // A client may have tried the key before it was delivered: forget that cached "unknown" answer.
    this.cache.delete(input.keyHash);
    const existing = await this.prisma.apiKey.findUnique({ where: { keyHash: input.keyHash } });
    if (existing) return { record: existing, created: false, conflict: existing.accountId !== input.accountId };
    const record = await this.insert({ ...input, id: input.id ?? newId("key") }).catch(async (err) => {
      // A concurrent provision of the same hash won the race: answer with its row.
      const raced = await this.prisma.apiKey.findUnique({ where: { keyHash: input.keyHash } });
      if (raced) return raced;
      throw err;
    });
    return { record, created: true, conflict: record.accountId !== input.accountId };
  }

  /** Revokes by hash; returns the row, or null when no key has that hash. */
  async revokeByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash } });
    if (!row) return null;
    this.cache.delete(keyHash);
    if (row.revokedAt) return row;
    return this.prisma.apiKey.update({ where: { keyHash }, data: { revokedAt: new Date() } });
  }

  private async insert(data: { accountId: string; id: string; keyHash: string; prefix: string; name?: string | null }) {
    const record = await this.prisma.$transaction(async (tx) => {
      await tx.account.upsert({ where: { id: data.accountId }, create: { id: data.accountId }, update: {} });
      return tx.apiKey.create({ data: { ...data, name: data.name ?? null } });
    });
    this.cache.delete(data.keyHash); // a client may have tried the key before it arrived
    return record;
  }

  /** Writes the pending last_used_at values (one statement per key, at most once a minute). */
  async flushUsage(): Promise<void> {
    const pending = [...this.usedSince.values()];
    this.usedSince.clear();
    for (const { identity, at } of pending) {
      await this.prisma.apiKey
        .updateMany({ where: { accountId: identity.accountId, id: identity.keyId }, data: { lastUsedAt: new Date(at) } })
        .catch(() => undefined);
    }
  }

  startUsageFlush(): void {
    this.timer = setInterval(() => void this.flushUsage(), TOUCH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flushUsage();
  }
}
