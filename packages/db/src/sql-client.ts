/** The small SQL surface the migration runner, readiness checks and tests need, on either driver. */
export interface QueryOptions {
  /**
   * Prepares the statement once per connection under this name (PostgreSQL; PGlite ignores it), so
   * a statement sent many times with the same text is parsed and planned once, not per call (after
   * five executions PostgreSQL keeps a generic plan when it is no costlier). One name, one text.
   */
  name?: string;
}

export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlSession {
  /** Runs `fn` on one dedicated connection (session-level advisory locks, explicit transactions). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}

/**
 * Receives notifications on `channel` (see change-feed.ts); `onGap` when some may have been missed.
 * Resolves once it listens, to a function that stops listening.
 */
export type Listen = (channel: string, onPayload: (payload: string) => void, onGap: () => void) => Promise<() => Promise<void>>;
