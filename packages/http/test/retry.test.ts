import { backoffDelay, jittered, retry } from "../src/retry";

/** A sleep that records the waits and returns at once. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe("backoff", () => {
  it("doubles from the base after each failure, up to the maximum", () => {
    const schedule = { baseMs: 30_000, maxMs: 3_600_000 };
    expect([1, 2, 3, 4, 7, 8, 9, 50, 10_000].map((n) => backoffDelay(n, schedule))).toEqual([
      30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
    expect(backoffDelay(0, schedule)).toBe(30_000);
  });

  it("jitters each wait within ± the fraction, by the random source", () => {
    const schedule = { baseMs: 1000, maxMs: 10_000, jitter: 0.2 };
    expect(backoffDelay(1, schedule, () => 0)).toBe(800);
    expect(backoffDelay(1, schedule, () => 0.5)).toBe(1000);
    expect(backoffDelay(1, schedule, () => 0.999_999)).toBe(1200);
    expect(backoffDelay(5, schedule, () => 0)).toBe(8000);
    expect(backoffDelay(6, schedule, () => 0.999_999)).toBe(12_000);
    for (let i = 0; i < 1000; i++) {
      const wait = jittered(500, 0.5);
      expect(wait).toBeGreaterThanOrEqual(250);
      expect(wait).toBeLessThanOrEqual(750);
    }
    expect(jittered(500, 0, () => 0)).toBe(500);
  });
});

describe("retry", () => {
  it("returns the first success, after waiting the schedule between failures", async () => {
    const { waits, sleep } = recordingSleep();
    const seen: number[] = [];
    const result = await retry(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 4) throw new Error(`failure ${attempt}`);
        return "done";
      },
      { attempts: 5, backoff: { baseMs: 100, maxMs: 250 }, sleep },
    );
    expect(result).toBe("done");
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(waits).toEqual([100, 200, 250]);
  });

  it("throws the last failure as it was once the attempts are spent, without a wait after it", async () => {
    const { waits, sleep } = recordingSleep();
    const last = new Error("failure 3");
    let calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw calls === 3 ? last : new Error(`failure ${calls}`);
        },
        { attempts: 3, backoff: { baseMs: 10, maxMs: 1000, jitter: 0.5 }, random: () => 0, sleep },
      ),
    ).rejects.toBe(last);
    expect(calls).toBe(3);
    expect(waits).toEqual([5, 10]);
  });

  it("throws a failure that is not retryable at once", async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const fatal = new TypeError("bad request");
    await expect(
      retry(
        async () => {
          calls++;
          throw calls === 1 ? new RangeError("transient") : fatal;
        },
        { attempts: 5, retryable: (err) => err instanceof RangeError, backoff: { baseMs: 1, maxMs: 1 }, sleep },
      ),
    ).rejects.toBe(fatal);
    expect(calls).toBe(2);
    expect(waits).toEqual([1]);
  });

  it("retries at once without a backoff, and calls once with one attempt", async () => {
    let calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw new Error("no");
        },
        { attempts: 3 },
      ),
    ).rejects.toThrow("no");
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw new Error("no");
        },
        { attempts: 1, backoff: { baseMs: 1000, maxMs: 1000 } },
      ),
    ).rejects.toThrow("no");
    expect(calls).toBe(1);
  });
});
