import { startPeriodic, type PeriodicTimers } from "../src/periodic";

/** Timers stepped by hand: `fire()` runs the one pending callback as if its time had come. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: PeriodicTimers = {
    setTimeout(fn, ms) {
      pending.set(next, { fn, ms });
      return next++;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    /** The delays of the callbacks waiting to run. */
    delays: () => [...pending.values()].map((p) => p.ms),
    fire() {
      expect(pending.size).toBe(1);
      const [[id, { fn }]] = pending;
      pending.delete(id);
      fn();
    },
  };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** jest-circus has no `fail`: a run or reporter that must not be called throws. */
const fail = (what: unknown): never => {
  throw new Error(`unexpected: ${String(what)}`);
};

/** Lets settled promises' callbacks run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("periodic runner", () => {
  it("runs one interval after the start, then one interval after each run ends", async () => {
    const clock = manualTimers();
    let runs = 0;
    const job = startPeriodic({ intervalMs: 1000, run: async () => void runs++, onError: fail, timers: clock.timers });
    expect(runs).toBe(0);
    expect(clock.delays()).toEqual([1000]);
    clock.fire();
    expect(runs).toBe(1);
    await settle();
    expect(clock.delays()).toEqual([1000]);
    clock.fire();
    await settle();
    expect(runs).toBe(2);
    await job.stop();
    expect(clock.delays()).toEqual([]);
  });

  it("with runAtStart, starts the first run inside startPeriodic", async () => {
    const clock = manualTimers();
    let runs = 0;
    const job = startPeriodic({ intervalMs: 1000, runAtStart: true, run: async () => void runs++, onError: fail, timers: clock.timers });
    expect(runs).toBe(1);
    await job.stop();
    expect(clock.delays()).toEqual([]);
  });

  it("on an overrun, never starts a second run: the next one is scheduled a full interval after the slow one ends", async () => {
    const clock = manualTimers();
    const slow = deferred();
    let running = 0;
    let most = 0;
    let runs = 0;
    const job = startPeriodic({
      intervalMs: 1000,
      runAtStart: true,
      run: async () => {
        running++;
        most = Math.max(most, running);
        runs++;
        if (runs === 1) await slow.promise; // runs far past its interval
        running--;
      },
      onError: fail,
      timers: clock.timers,
    });
    await settle();
    // However long the run takes, nothing is pending while it is in flight.
    expect(clock.delays()).toEqual([]);
    slow.resolve();
    await settle();
    expect(clock.delays()).toEqual([1000]);
    clock.fire();
    await settle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await job.stop();
  });

  it("reports a failed run and goes on", async () => {
    const clock = manualTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const job = startPeriodic({
      intervalMs: 50,
      runAtStart: true,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error("boom");
      },
      onError: (err) => {
        errors.push(err);
        throw new Error("the reporter fails too");
      },
      timers: clock.timers,
    });
    await settle();
    expect(errors).toEqual([new Error("boom")]);
    expect(clock.delays()).toEqual([50]);
    clock.fire();
    await settle();
    expect(runs).toBe(2);
    await job.stop();
  });

  it("stop() aborts the run's signal, waits for the run in flight, and schedules nothing after it", async () => {
    const clock = manualTimers();
    const gate = deferred();
    let aborted = false;
    let finished = false;
    const job = startPeriodic({
      intervalMs: 1000,
      runAtStart: true,
      run: async (signal) => {
        signal.addEventListener("abort", () => {
          aborted = true;
        });
        await gate.promise;
        finished = true;
      },
      onError: fail,
      timers: clock.timers,
    });
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(aborted).toBe(true);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(clock.delays()).toEqual([]);
  });

  it("stop() between runs cancels the pending start", async () => {
    const clock = manualTimers();
    let runs = 0;
    const job = startPeriodic({ intervalMs: 1000, run: async () => void runs++, onError: fail, timers: clock.timers });
    await job.stop();
    expect(clock.delays()).toEqual([]);
    expect(runs).toBe(0);
  });

  it("never runs with an interval of 0", async () => {
    const clock = manualTimers();
    const job = startPeriodic({ intervalMs: 0, runAtStart: true, run: async () => fail("ran"), onError: fail, timers: clock.timers });
    expect(clock.delays()).toEqual([]);
    await job.stop();
  });

  it("on real timers, runs again after the interval and stops", async () => {
    let runs = 0;
    const twice = deferred();
    const job = startPeriodic({
      intervalMs: 5,
      run: async () => {
        if (++runs === 2) twice.resolve();
      },
      onError: fail,
    });
    await twice.promise; // waits for the state, bounded only by the test's timeout
    await job.stop();
    const after = runs;
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(after);
  });
});
