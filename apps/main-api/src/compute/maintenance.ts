import type { Logger } from "pino";
import { type Database, lacksAutovacuum, vacuumDeadTables } from "@cloudcost/db";
import { type Periodic, startPeriodic } from "@cloudcost/http";

/**
 * Vacuuming where no autovacuum runs: the embedded database (PGlite has no autovacuum worker) and a
 * PostgreSQL server with `autovacuum = off` (as this project's CI server). A table updated in place
 * (heartbeats with every metric batch, the tail and the resource rows with every analysis cycle,
 * roll-ups, the outbox) otherwise keeps every dead row version, grows without end and is read ever
 * slower. The service vacuums the tables past autovacuum's thresholds itself (vacuumDeadTables), on
 * the shared periodic runner every `intervalMs`, and sooner after large writes: a handler reports the
 * rows it wrote (`noteWrites`), and once `afterRows` have been written since the last pass one starts
 * at once. Passes never overlap. Where autovacuum runs, its first pass finds that out and none follows.
 */
export interface VacuumSchedule {
  /** Rows a request just wrote to tables updated in place; a pass starts once `afterRows` add up. */
  noteWrites(rows: number): void;
  /** One pass now (or the one running); answers when it has ended. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export interface VacuumOptions {
  db: Database;
  logger: Logger;
  /** Between the end of one pass and the next; 0: never on a schedule. */
  intervalMs: number;
  /** Rows written since the last pass that start one at once; 0: only on the schedule. */
  afterRows: number;
}

export function createVacuumSchedule(options: VacuumOptions): VacuumSchedule & { start(): void } {
  let written = 0;
  let running: Promise<void> | undefined;
  let periodic: Periodic | undefined;
  let stopped = false;
  /** Undefined until the first pass asked the database. */
  let needed: boolean | undefined;

  const vacuum = async () => {
    needed ??= await lacksAutovacuum(options.db.kind, options.db.sql);
    if (!needed) return;
    const started = Date.now();
    const tables = await vacuumDeadTables(options.db.sql);
    if (tables.length) options.logger.debug({ tables, durationMs: Date.now() - started }, "vacuumed tables with dead rows");
  };
  const pass = (): Promise<void> => {
    if (running) return running;
    written = 0;
    const current = vacuum().finally(() => {
      running = undefined;
    });
    running = current;
    return current;
  };
  const onError = (err: unknown) => options.logger.warn({ err }, "vacuum pass failed; the next one retries");

  return {
    start() {
      if (stopped || periodic) return;
      // The first pass at once: it finds out whether the database vacuums itself.
      periodic = startPeriodic({ intervalMs: options.intervalMs, run: pass, onError, runAtStart: true });
    },
    noteWrites(rows) {
      if (stopped || needed === false || !(options.afterRows > 0) || !periodic) return;
      written += rows;
      if (written >= options.afterRows && !running) pass().catch(onError);
    },
    runNow: pass,
    async stop() {
      stopped = true;
      await periodic?.stop();
      await running?.catch(() => undefined);
    },
  };
}
