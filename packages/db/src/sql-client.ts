/** The small SQL surface the migration runner, readiness checks and tests need, on either driver. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
}

export interface SqlClient extends SqlSession {
  /** Runs `fn` on one dedicated connection (session-level advisory locks, explicit transactions). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}
