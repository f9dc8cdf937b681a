import { Decimal } from "@cloudcost/decimal";
import type { ChangeFeed } from "@cloudcost/db";
import type { ComputeRow } from "./repository";

/** One negotiated entry as the compute query applies it ("" = matches all). */
export interface NegotiatedRate {
  id: string;
  region: string;
  instanceType: string;
  family: string;
  operatingSystem: string;
  usageType: string;
  fixed: Decimal | null;
  /** The factor a discount leaves of the list price: 1 - discount_percent / 100. */
  factor: Decimal | null;
  currency: string;
  from: number;
  to: number;
  rank: number;
}

/** What an entry is matched against: a catalog row (or its Windows estimate) as the query prices it. */
export interface PricedType {
  provider: string;
  region: string;
  instanceType: string;
  family: string;
  operatingSystem: string;
  usageType: string;
  currency: string;
}

/**
 * Most specific wins, as a lexicographic order over the fields an entry names: instance type, then
 * family, then region, then operating system, then usage type (the provider is always named). So
 * region+family beats family alone, family beats region, and an OS- or usage-specific entry beats
 * the same entry for every OS or usage type.
 */
const rankOf = (row: ComputeRow) =>
  (row.instance_type ? 16 : 0) + (row.family ? 8 : 0) + (row.region ? 4 : 0) + (row.operating_system ? 2 : 0) + (row.usage_type ? 1 : 0);

const FOREVER = Number.POSITIVE_INFINITY;

function toRate(row: ComputeRow): NegotiatedRate {
  return {
    id: row.id,
    region: row.region,
    instanceType: row.instance_type,
    family: row.family,
    operatingSystem: row.operating_system,
    usageType: row.usage_type,
    fixed: row.price_per_hour === null ? null : new Decimal(row.price_per_hour),
    factor: row.discount_percent === null ? null : new Decimal(1).minus(new Decimal(row.discount_percent).div(100)),
    currency: row.currency,
    from: new Date(row.effective_from).getTime(),
    to: row.effective_to === null ? FOREVER : new Date(row.effective_to).getTime(),
    rank: rankOf(row),
  };
}

/** The effective hourly price of `list` under `rate` (10 decimal places, as every compute answer). */
export const effectiveHourly = (rate: NegotiatedRate, list: Decimal): Decimal =>
  (rate.fixed ?? list.mul(rate.factor as Decimal)).toDecimalPlaces(10, Decimal.ROUND_HALF_UP);

/**
 * One account's live negotiated compute entries, immutable once built. Also holds the account's
 * serialised answers per catalog row, valid until the next moment an entry starts or ends.
 */
export class AccountComputePrices {
  private readonly byProvider = new Map<string, NegotiatedRate[]>();
  private readonly changes: number[];
  private answers = new WeakMap<object, string>();
  private validUntil = Number.NEGATIVE_INFINITY;
  readonly size: number;

  constructor(rows: ComputeRow[]) {
    this.size = rows.length;
    const changes = new Set<number>();
    for (const row of rows) {
      const rate = toRate(row);
      changes.add(rate.from);
      changes.add(rate.to);
      const list = this.byProvider.get(row.provider);
      if (list) list.push(rate);
      else this.byProvider.set(row.provider, [rate]);
    }
    for (const list of this.byProvider.values()) list.sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1));
    this.changes = [...changes].sort((a, b) => a - b);
  }

  /** The most specific entry effective at `now` (effective_from <= now < effective_to) that matches `t`. */
  applicable(t: PricedType, now: number): NegotiatedRate | undefined {
    const list = this.byProvider.get(t.provider);
    if (!list) return undefined;
    for (const r of list) {
      if (r.from > now || r.to <= now) continue;
      if (r.instanceType && r.instanceType !== t.instanceType) continue;
      if (r.family && r.family !== t.family) continue;
      if (r.region && r.region !== t.region) continue;
      if (r.operatingSystem && r.operatingSystem !== t.operatingSystem) continue;
      if (r.usageType && r.usageType !== t.usageType) continue;
      // A fixed rate is a price in its own currency: it applies to rows priced in that currency only.
      if (r.fixed && r.currency !== t.currency) continue;
      return r;
    }
    return undefined;
  }

  /** The cached answer for `key` (a catalog row), built by `build` when missing or when an entry started or ended since. */
  answer(key: object, now: number, build: () => string): string {
    if (now >= this.validUntil) {
      this.answers = new WeakMap();
      this.validUntil = this.changes.find((change) => change > now) ?? FOREVER;
    }
    let json = this.answers.get(key);
    if (json === undefined) {
      json = build();
      this.answers.set(key, json);
    }
    return json;
  }
}

/** The change feed's topic: the account whose negotiated compute entries changed. */
export const NEGOTIATED_PRICES_CHANGED = "pricing.negotiated_compute";

/**
 * The accounts' negotiated compute entries held in process, keyed by account: loaded on an
 * account's first query, dropped when that account's entries change (through this process, or
 * another replica through the change feed), and reloaded after `ttlMs` in any case, the safety
 * net for a missed notification.
 */
export class NegotiatedPriceCache {
  private readonly accounts = new Map<string, { prices: AccountComputePrices; loadedAt: number }>();
  private readonly loading = new Map<string, Promise<AccountComputePrices>>();
  // One counter per account whose entries changed since start (never swept: an in-flight load compares against it).
  private readonly generations = new Map<string, number>();
  private lastSweep = Date.now();

  private readonly ttlMs: number;
  private readonly changeFeed?: ChangeFeed;

  constructor(
    private readonly load: (accountId: string) => Promise<ComputeRow[]>,
    options: { ttlMs?: number; changes?: ChangeFeed } = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.changeFeed = options.changes;
    this.changeFeed?.subscribe(NEGOTIATED_PRICES_CHANGED, (accountId) => (accountId === null ? this.invalidateAll() : this.invalidate(accountId)));
  }

  /** The account's entries if loaded and fresh (no database work); undefined otherwise. */
  peek(accountId: string, now = Date.now()): AccountComputePrices | undefined {
    const cached = this.accounts.get(accountId);
    if (cached === undefined) return undefined;
    if (now - cached.loadedAt < this.ttlMs) return cached.prices;
    this.accounts.delete(accountId);
    return undefined;
  }

  /** The account's entries, loaded from the database when not cached (one load at a time per account). */
  get(accountId: string): Promise<AccountComputePrices> {
    const cached = this.peek(accountId);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(accountId);
    if (!pending) {
      this.sweep();
      const generation = this.generations.get(accountId) ?? 0;
      const loadedAt = Date.now();
      pending = this.load(accountId)
        .then((rows) => {
          const prices = new AccountComputePrices(rows);
          // A change committed while this load ran may be missing from it: keep it only if none happened.
          if ((this.generations.get(accountId) ?? 0) === generation) this.accounts.set(accountId, { prices, loadedAt });
          return prices;
        })
        .finally(() => {
          if (this.loading.get(accountId) === pending) this.loading.delete(accountId);
        });
      this.loading.set(accountId, pending);
    }
    return pending;
  }

  /** Drops expired accounts (those that stopped asking), at most once per TTL, so the map does not grow without bound. */
  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.ttlMs) return;
    this.lastSweep = now;
    for (const [accountId, cached] of this.accounts) if (now - cached.loadedAt >= this.ttlMs) this.accounts.delete(accountId);
  }

  /** Drops the account's entries: the next query reloads them. */
  invalidate(accountId: string): void {
    this.generations.set(accountId, (this.generations.get(accountId) ?? 0) + 1);
    this.accounts.delete(accountId);
    this.loading.delete(accountId);
  }

  private invalidateAll(): void {
    for (const accountId of new Set([...this.accounts.keys(), ...this.loading.keys()])) this.invalidate(accountId);
  }

  /** Called after every committed change of the account's entries: drops them here and tells the other replicas. */
  async changed(accountId: string): Promise<void> {
    this.invalidate(accountId);
    await this.changeFeed?.publish(NEGOTIATED_PRICES_CHANGED, accountId);
  }
}
