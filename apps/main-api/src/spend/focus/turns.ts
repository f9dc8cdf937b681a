/** Work done between two turns of the event loop: a few milliseconds, so that other requests are answered meanwhile. */
export const TURN_MS = 10;

export interface TurnTaker {
  /** After a row: a promise to await once TURN_MS of work has gone by since the last turn, else undefined. */
  due(): Promise<void> | undefined;
  /** Hands the event loop back now. */
  next(): Promise<void>;
}

/**
 * Hands the event loop back once TURN_MS of work has gone by since the last turn, however costly
 * each row is (the clock is read after every row: a small fraction of a row's cost). The time counts
 * what the reader's consumer does with the rows as well, since that runs in the same turn.
 */
export function turnTaker(): TurnTaker {
  let since = performance.now();
  const next = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  return {
    due: () => (performance.now() - since < TURN_MS ? undefined : next()),
    next,
  };
}
