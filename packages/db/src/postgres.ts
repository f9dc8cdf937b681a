import type { Pool } from "pg";
import type { QueryOptions, SqlClient, SqlSession } from "./sql-client";

const config = (sql: string, params: unknown[], options?: QueryOptions) => ({ text: sql, values: params, ...(options?.name ? { name: options.name } : {}) });

export function postgresSqlClient(pool: Pool): SqlClient {
  const query = async <T>(sql: string, params: unknown[] = [], options?: QueryOptions) => (await pool.query(config(sql, params, options))).rows as T[];
  return {
    query,
    async exec(sql: string) {
      await pool.query(sql);
    },
    async withSession(fn) {
      const client = await pool.connect();
      const session: SqlSession = {
        query: async <T>(sql: string, params: unknown[] = [], options?: QueryOptions) => (await client.query(config(sql, params, options))).rows as T[],
        exec: async (sql: string) => {
          await client.query(sql);
        },
      };
      try {
        return await fn(session);
      } finally {
        client.release();
      }
    },
  };
}

/** A URL for display: the password is never printed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable database URL)";
  }
}
