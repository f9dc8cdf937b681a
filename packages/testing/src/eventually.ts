/**
 * Waiting for a state, not for a time: the suites run on shared, sometimes loaded machines, where
 * a fixed sleep is too short and a tight deadline fails a correct build.
 */

/** How long a suite waits for a state before it fails: generous, for a loaded machine. */
export const EVENTUALLY_TIMEOUT_MS = 20_000;

export interface EventuallyOptions {
  /** The overall bound (default EVENTUALLY_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The pause between probes (default 20 ms). */
  everyMs?: number;
  /** What is awaited, for the failure message. */
  what?: string;
}

/**
 * Probes until `done` holds for the probe's value, and returns that value; throws once
 * `timeoutMs` have passed, with the last value seen.
 */
export async function eventually<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, options: EventuallyOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? EVENTUALLY_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`${options.what ?? "the awaited state"}: not reached within ${timeoutMs} ms (last seen: ${describe(value)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 20));
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return String(value);
  }
}
