/**
 * Retrying with exponential backoff: the one schedule of the outbox, webhook deliveries, the main
 * API's pricing client and the pricing API's transactions. The random source and the sleep are
 * injectable, so tests check the waits without waiting.
 */

export interface Backoff {
  /** The wait after the first failed attempt; each further failure doubles it. */
  baseMs: number;
  /** No wait is longer (before jitter). */
  maxMs: number;
  /**
   * Each wait is moved by up to ± this fraction of it, at random (0.2: 80 % to 120 %), so that
   * callers that failed together do not retry together. 0 or absent: exact waits.
   */
  jitter?: number;
}

/** A number in [0, 1), as Math.random. */
export type RandomSource = () => number;

/** The wait after failed attempt `attempt` (1-based): base x 2^(attempt-1), at most max, then jittered. */
export function backoffDelay(attempt: number, backoff: Backoff, random: RandomSource = Math.random): number {
  const exponential = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 40));
  return jittered(exponential, backoff.jitter ?? 0, random);
}

/** `ms` moved by up to ± `fraction` of it, at random, rounded to a whole millisecond. */
export function jittered(ms: number, fraction: number, random: RandomSource = Math.random): number {
  if (fraction <= 0) return ms;
  return Math.max(0, Math.round(ms * (1 - fraction + random() * 2 * fraction)));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface RetryOptions {
  /** At most this many calls in all (1: no retry). */
  attempts: number;
  /** Whether a failure is worth another attempt; one that is not is thrown at once. Default: every failure. */
  retryable?: (err: unknown) => boolean;
  /** The waits between attempts; absent: none. */
  backoff?: Backoff;
  random?: RandomSource;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Calls `fn` (with its 1-based attempt number) until it resolves, a failure is not retryable, or
 * `attempts` calls failed; then the last failure is thrown as it was.
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= options.attempts || (options.retryable && !options.retryable(err))) throw err;
      if (options.backoff) {
        const wait = backoffDelay(attempt, options.backoff, options.random);
        if (wait > 0) await (options.sleep ?? sleep)(wait);
      }
    }
  }
}
