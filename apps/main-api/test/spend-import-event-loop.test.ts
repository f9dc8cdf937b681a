// How long reading a FOCUS file may hold the event loop (docs/api.md, "Imports"): both readers hand
// the loop back after about 10 ms of work, counting what their consumer does with each row (the
// import allocates, tallies and batches it in the same turn), however costly the rows are. Before,
// the Parquet reader handed it back every 1,000 rows (2-3 s here with a consumer spending 1 ms a
// row), and the CSV reader never did while its parser had records: a 5 MB body handed over in one
// chunk held the loop for the whole file (this test's wall-clock delay monitor never got a sample,
// so it could not see it).
import request from "supertest";
import { readFocusCsv, readFocusParquet } from "../src/spend/focus";
import { createTestContext, type TestContext } from "./helpers/context";
import { alikeFocusParquet, asyncBufferOf, focusCsvText, streamOf } from "./helpers/focus-files";
import { signUp } from "./helpers/identity";

/**
 * The most CPU time this process spent in one turn of the event loop while `work` ran, in ms: a 1 ms
 * timer notes process.cpuUsage() each time it gets to run, and the longest gap between two notes is
 * the longest turn's work (plus a timer's). CPU time, not wall time: on a loaded machine the process
 * may wait for a core for hundreds of ms (a 442 ms "stall" with nothing to do with the reader, CI at
 * load 14), which a wall-clock delay counts and CPU time does not.
 */
async function longestTurnCpu(work: () => Promise<void>): Promise<number> {
  let last = process.cpuUsage();
  let longest = 0;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  const note = () => {
    const now = process.cpuUsage();
    longest = Math.max(longest, (now.user - last.user + now.system - last.system) / 1000);
    last = now;
    if (running) timer = setTimeout(note, 1);
  };
  timer = setTimeout(note, 1);
  try {
    await work();
  } finally {
    running = false;
    clearTimeout(timer);
    note();
  }
  return longest;
}

/** A consumer that spends `ms` on each row, as an import's allocation, tally and batching do (a fraction of that). */
function costlyConsumer(ms: number) {
  return () => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy: the work of the turn
    }
  };
}

/**
 * Generous (about 10 ms of work a turn, plus one row, plus what the process's other threads do
 * meanwhile); the old Parquet reader held the loop for 1,000 rows at a time (1 s of work here).
 */
const STALL_BOUND_MS = 300;
const ROWS = 3_000;
const CSV_ROWS = 25_000;

describe("the readers hand the event loop back after a few milliseconds of work, however costly the rows", () => {
  test("Parquet, one row group, one page per column", async () => {
    const file = alikeFocusParquet(ROWS);
    const consume = costlyConsumer(1);
    let rows = 0;
    const stall = await longestTurnCpu(async () => {
      for await (const _line of readFocusParquet(asyncBufferOf(file))) {
        rows += 1;
        consume();
      }
    });
    expect(rows).toBe(ROWS);
    expect(stall).toBeLessThan(STALL_BOUND_MS);
  }, 60_000);

  test("CSV, a file of 25,000 rows (5 MB) handed over in one chunk", async () => {
    const csv = focusCsvText(Array.from({ length: CSV_ROWS }, () => ({})));
    expect(csv.length).toBeGreaterThan(4_000_000);
    const consume = costlyConsumer(0.1);
    let rows = 0;
    const stall = await longestTurnCpu(async () => {
      for await (const _line of readFocusCsv(streamOf(csv))) {
        rows += 1;
        consume();
      }
    });
    expect(rows).toBe(CSV_ROWS);
    expect(stall).toBeLessThan(STALL_BOUND_MS);
  }, 120_000);
});

describe("an import stores its lines in batches built in a short turn of the event loop", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
  });

  // 64 tags of 128-character keys and 256-character values (25 KB of JSON a line, the most a line
  // may hold) and a 20 KiB ResourceName, kept once in the file: one insert of 5,000 such lines held
  // the loop for 548-554 ms here (4.5 load on 2 cores); batches of at most 2 MB of the file, 55-75 ms.
  const TAGS = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`${i}`.padStart(128, "k"), "v".repeat(256)]));

  test("5,000 lines of 64 long tags each: imported, the event loop never held for long", async () => {
    const owner = await signUp(ctx, { company: "Long tags" });
    const file = alikeFocusParquet(5_000, { tags: TAGS, resourceName: "r".repeat(20 * 1024) });
    let res: request.Response | undefined;
    const stall = await longestTurnCpu(async () => {
      res = await request(ctx.app)
        .post(`/api/v1/organizations/${owner.organization.id}/spend/imports`)
        .set("Authorization", `Bearer ${owner.token}`)
        .set("Content-Type", "application/vnd.apache.parquet")
        .send(Buffer.from(file));
    });
    expect(res?.status).toBe(201);
    expect(res?.body.data.import.rows).toBe(5_000);
    expect(await ctx.prisma.spendLine.count({ where: { organizationId: owner.organization.id } })).toBe(5_000);
    // PGlite runs the database in this process: its statements hold the loop too.
    if (process.env.TEST_DATABASE_URL) expect(stall).toBeLessThan(STALL_BOUND_MS);
  }, 300_000);
});
