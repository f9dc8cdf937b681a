/**
 * A periodic job (the compute analysis, the budget and anomaly checks, the pricing API's catalog
 * version poll), with one behaviour for all of them:
 *
 * - never two runs at once: the next run is scheduled only when the previous one has ended;
 * - an overrun delays what follows: the next run starts `intervalMs` after the previous one
 *   *ended*, however long it took. Nothing queues up and nothing is caught up, so a run that is
 *   slow on a loaded machine is never followed by a burst of runs;
 * - a failed run is reported to `onError` and the schedule goes on;
 * - `stop()` cancels the pending start, aborts the run's signal (a long run may end early) and
 *   resolves once the run in flight, if any, has ended: nothing of the job runs after it.
 */

/** The timer functions the runner uses; tests pass their own to step time by hand. */
export interface PeriodicTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PeriodicOptions {
  /** The pause between the end of one run and the start of the next; 0 or less: the job never runs. */
  intervalMs: number;
  /** One run; `signal` is aborted by stop(). */
  run: (signal: AbortSignal) => Promise<void>;
  /** Called with a run's failure; the next run is still scheduled. */
  onError: (err: unknown) => void;
  /** The first run starts at once, inside startPeriodic, rather than one interval later. */
  runAtStart?: boolean;
  timers?: PeriodicTimers;
}

export interface Periodic {
  /** No run starts after this; resolves when the run in flight (if any) has ended. */
  stop(): Promise<void>;
}

/** Real timers that do not keep the process alive. */
const realTimers: PeriodicTimers = {
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function startPeriodic(options: PeriodicOptions): Periodic {
  if (!(options.intervalMs > 0)) return { stop: async () => undefined };
  const timers = options.timers ?? realTimers;
  const controller = new AbortController();
  let pending: unknown;
  let inFlight: Promise<void> = Promise.resolve();

  const runOnce = async () => {
    try {
      await options.run(controller.signal);
    } catch (err) {
      try {
        options.onError(err);
      } catch {
        // A failing error reporter must not end the schedule.
      }
    }
    if (!controller.signal.aborted) pending = timers.setTimeout(start, options.intervalMs);
  };
  function start() {
    pending = undefined;
    inFlight = runOnce();
  }

  if (options.runAtStart) start();
  else pending = timers.setTimeout(start, options.intervalMs);

  return {
    async stop() {
      controller.abort();
      if (pending !== undefined) timers.clearTimeout(pending);
      pending = undefined;
      await inFlight;
    },
  };
}
