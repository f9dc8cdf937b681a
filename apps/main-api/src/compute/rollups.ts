import type { SqlSession } from "@cloudcost/db";
import type { Prisma } from "../db";
import { inSessionTransaction } from "../transactions";
import type { DayRollupRepository } from "./day-rollup-repository";
import type { TailRepository, TailStatus } from "./rollup-repository";

/**
 * Daily roll-ups of the raw samples, so that an analysis cycle reads ~one row per resource and day
 * instead of every 5-minute sample (10,000 resources × 14 days × 288 = 40 M rows).
 *
 * - A UTC day is *settled* one hour after it ends; only settled days are rolled up, by the
 *   analysis cycle (ingest stays a plain insert). Ingest bumps the day's status `version` when a
 *   sample lands in a day that ended more than 30 minutes ago (a late or re-sent sample); the
 *   roll-up records the version it read in the same snapshot as the samples, so a day is rebuilt
 *   whenever a sample arrived after its roll-up, and a re-sent sample is never counted twice
 *   (a roll-up is always rebuilt from the raw rows, never incremented). The 30-minute margin covers
 *   an ingest transaction that straddles the moment the day settles.
 * - Histograms count values in hundredths of a percentage point (bucket b holds the value b / 100,
 *   0..10000: ingest stores utilization rounded half-up to two decimals), stored sparse (buckets
 *   with a count only). The nearest-rank p95 of the merged histogram is therefore the exact
 *   nearest-rank p95 of the stored samples; the maximum is kept exact too.
 * - Memory counts as evidence on its own (rightsizing.ts): the roll-ups keep the first and last
 *   sample that carried memory. Network is only compared with the idle threshold, so a roll-up keeps
 *   two counts, samples that carried network and those below the threshold, from which
 *   "p95 below the threshold" is decided exactly (rank ceil(0.95 n) of n values is below t exactly
 *   when at least that many values are).
 */

const SETTLE_MS = 3600_000;
const DAY_MS = 86_400_000;

export interface RollupWindow {
  /** First sample time in the window (now − lookback). */
  since: Date;
  /** Rolled-up days are [firstDay, endDay) (UTC midnights); empty when endDay <= firstDay. */
  firstDay: Date;
  endDay: Date;
}

const floorDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The whole settled days inside [since, now]; raw samples cover the rest of the window. */
export function rollupWindow(since: Date, now: Date): RollupWindow {
  const firstDay = new Date(Math.ceil(since.getTime() / DAY_MS) * DAY_MS);
  const endDay = new Date(Math.max(firstDay.getTime(), floorDay(now.getTime() - SETTLE_MS)));
  return { since, firstDay, endDay };
}

/** How long a cycle waits for in-flight ingests to let go of the fence before it keeps the tail as it is. */
const FENCE_WAIT = "2s";

export interface RollupDeps {
  /** The day roll-ups and retention run on the pool. */
  prisma: Prisma;
  days: DayRollupRepository;
  /** The tail and its fence, on the cycle's session. */
  tail: TailRepository;
}

export type Rollups = ReturnType<typeof createRollups>;

/** The roll-ups an analysis cycle keeps up to date before it reads the window's statistics (analysis.ts). */
export function createRollups({ prisma, days, tail }: RollupDeps) {
  /**
   * Rolls up every settled day of the window that has no roll-up yet or got samples since (one
   * statement per day: the samples and the status version are read in one snapshot); rows of
   * resources without samples that day any more are deleted, the others overwritten.
   */
  async function rollUpSettledDays(tenantId: string, window: RollupWindow): Promise<number> {
    if (window.endDay <= window.firstDay) return 0;
    const stale = await days.findStaleDays(prisma, tenantId, window.firstDay, window.endDay);
    for (const day of stale) await days.rollUpDay(prisma, tenantId, day);
    return stale.length;
  }

  /**
   * The tail: the window's unsettled part, [endDay, cut), rolled up per resource and extended each
   * cycle by the samples since the previous cut only, so a cycle's cost follows what arrived since the
   * last one, not the whole unsettled day (which the statistics otherwise re-read every cycle).
   *
   * - The fence: ingest share-locks the tenant's status row (after the fence's advisory lock, shared)
   *   and checks its samples against `cut`. A
   *   new sample behind it (a delayed agent) is queued in compute_sample_tail_late for the next
   *   extension; a re-sent one (its old value is in the tail) marks the tail stale, through a version
   *   bump of its first day's status, as for day roll-ups. A cycle first moves `cut` to `target` under
   *   the advisory lock taken exclusive, which waits until no ingest holds it, so every sample before the new cut is committed by
   *   the time the cycle reads it, or was checked against it.
   * - Rebuilt from the raw samples when it starts on another day than the window's endDay, when a
   *   re-sent sample made it stale, or when there is none; extended otherwise. A rebuild needs no new
   *   fence: everything before the old one is committed, queued or marked.
   * - When the fence cannot be moved within FENCE_WAIT (ingest holding it without a gap), the cycle
   *   uses the tail as it is and reads the raw samples from where it ends.
   *
   * Returns where the tail ends (endDay when there is none): the raw samples are read from there.
   */
  async function rollUpTail(session: SqlSession, tenantId: string, window: RollupWindow, target: Date): Promise<Date> {
    const endDay = isoDay(window.endDay);
    const version = await tail.dayVersion(session, tenantId, endDay);
    const status = await moveFence(session, tenantId, target);
    if (!status) return window.endDay;
    const rolledCut = status.rolled_cut;
    if (rolledCut === null || status.from_day !== endDay || status.rolled_version !== version) {
      // Stale: the tail is rebuilt from the end of the rolled-up days.
      const cut = status.cut ?? rolledCut;
      if (!cut || cut <= window.endDay) return window.endDay;
      await rollUp(session, tenantId, { from: window.endDay, cut, extending: false, endDay, version });
      return cut;
    }
    const cut = status.cut ?? rolledCut;
    if (cut > rolledCut) await rollUp(session, tenantId, { from: rolledCut, cut, extending: true, endDay, version });
    return cut;
  }

  /**
   * The tail roll-up and the status row that records what the tail then covers ([endDay, cut) at the day
   * status version read before), in one transaction. The row is updated under the fence's advisory
   * lock, taken once the roll-up is written: the update waits for the ingests in flight only, and new
   * ones wait for the few milliseconds until the commit, not for the roll-up.
   */
  async function rollUp(
    session: SqlSession,
    tenantId: string,
    rolled: { from: Date; cut: Date; extending: boolean; endDay: string; version: number },
  ): Promise<void> {
    await inSessionTransaction(session, async () => {
      await tail.writeTail(session, tenantId, rolled);
      await tail.lockFence(session, tenantId);
      await tail.recordTail(session, tenantId, rolled);
    });
  }

  /** The status row after moving its fence forward to `target` (never back), or as it is when the lock wait ran out. */
  async function moveFence(session: SqlSession, tenantId: string, target: Date): Promise<TailStatus | null> {
    let moved: TailStatus | undefined;
    try {
      moved = await inSessionTransaction(
        session,
        async () => {
          await tail.lockFence(session, tenantId);
          return tail.advanceFence(session, tenantId, target);
        },
        { lockTimeout: FENCE_WAIT },
      );
    } catch (err) {
      if ((err as { code?: string }).code !== "55P03") throw err;
      // The fence stays where the last cycle left it: everything before it is committed, queued or marked.
      return (await tail.findTailStatus(session, tenantId)) ?? null;
    }
    if (moved) return moved;
    // Only a tenant whose resources predate its status row (none after the migration that adds it).
    await tail.insertTailStatus(session, tenantId);
    return null;
  }

  /** Retention: raw samples before the window, and roll-ups of days that start before it. */
  async function dropExpired(tenantId: string, window: RollupWindow): Promise<void> {
    await days.deleteExpired(prisma, tenantId, window.since, window.firstDay);
  }

  return { rollUpSettledDays, rollUpTail, dropExpired };
}
