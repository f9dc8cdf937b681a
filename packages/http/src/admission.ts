import type { RouteDefinition } from "@cloudcost/contracts";
import type { RequestHandler } from "express";
import { HttpError } from "./http-error";

/**
 * Admission control: how many requests of one class (say ingest writes, or reads) run at once, how
 * many may wait for a turn, and how long. A service offered more than it can do otherwise takes
 * everything in, every request shares the database pool, and all of them answer late (a minute of
 * mixed load once ended in 60-second answers): here the excess waits in a bounded line and is
 * refused quickly, 503 `service_unavailable` with Retry-After, when the line is full or its wait
 * runs out. Each class has its own slots and line, so one tenant's burst of ingest never makes
 * another's reads wait.
 */
export interface AdmissionClass {
  /** Requests of the class that run at once; 0: no limit (the class is not counted). */
  concurrency: number;
  /** Requests that may wait for a slot; beyond them a request is refused at once. */
  queue: number;
  /** Longest wait for a slot before the request is refused. */
  maxWaitMs: number;
}

export interface AdmissionCounts {
  running: number;
  waiting: number;
  refused: number;
}

export interface Admission<C extends string> {
  /** The middleware admitting requests of `name` (released when the answer is finished or the client went away). */
  gate(name: C): RequestHandler;
  /** What each class is doing now, and how many it refused since the start. */
  counts(): Record<C, AdmissionCounts>;
}

interface Waiter {
  admit(): void;
}

export function createAdmission<C extends string>(classes: Record<C, AdmissionClass>): Admission<C> {
  const state = {} as Record<C, AdmissionCounts & { line: Waiter[] }>;
  for (const name of Object.keys(classes) as C[]) state[name] = { running: 0, waiting: 0, refused: 0, line: [] };

  const refusal = (name: C, why: string, limits: AdmissionClass) =>
    new HttpError("service_unavailable", `The service is at capacity for ${name} requests (${why}); retry after the time in Retry-After.`, undefined, {
      "Retry-After": String(Math.max(1, Math.ceil(limits.maxWaitMs / 1000))),
    });

  function gate(name: C): RequestHandler {
    const limits = classes[name];
    const s = state[name];
    if (!(limits.concurrency > 0)) return (_req, _res, next) => next();
    const release = () => {
      const waiter = s.line.shift();
      if (waiter) waiter.admit();
      else s.running--;
    };
    return (_req, res, next) => {
      const run = () => {
        let released = false;
        // `close` follows `finish`, and also ends a request whose client went away.
        res.once("close", () => {
          if (released) return;
          released = true;
          release();
        });
        next();
      };
      if (s.running < limits.concurrency) {
        s.running++;
        run();
        return;
      }
      if (s.line.length >= limits.queue) {
        s.refused++;
        next(refusal(name, `${limits.concurrency} running and ${limits.queue} waiting`, limits));
        return;
      }
      let done = false;
      const leave = () => {
        const at = s.line.indexOf(waiter);
        if (at >= 0) s.line.splice(at, 1);
        s.waiting = s.line.length;
      };
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        leave();
        s.refused++;
        next(refusal(name, `no turn within ${limits.maxWaitMs} ms`, limits));
      }, limits.maxWaitMs);
      // A client that leaves while waiting gives its place up.
      const gone = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        leave();
      };
      res.once("close", gone);
      const waiter: Waiter = {
        // The slot passes straight from the request that ended to this one (running stays the same).
        admit() {
          done = true;
          clearTimeout(timer);
          res.off("close", gone);
          s.waiting = s.line.length;
          run();
        },
      };
      s.line.push(waiter);
      s.waiting = s.line.length;
    };
  }

  return {
    gate,
    counts() {
      const out = {} as Record<C, AdmissionCounts>;
      for (const name of Object.keys(state) as C[])
        out[name] = { running: state[name].running, waiting: state[name].line.length, refused: state[name].refused };
      return out;
    },
  };
}

/**
 * The binder's `admit` hook over one admission: each route's class from `classOf` (undefined: never
 * limited, as health probes).
 */
export function admitHook<C extends string>(
  admission: Admission<C>,
  classOf: (route: RouteDefinition) => C | undefined,
): (route: RouteDefinition) => RequestHandler | undefined {
  return (route) => {
    const name = classOf(route);
    return name ? admission.gate(name) : undefined;
  };
}
