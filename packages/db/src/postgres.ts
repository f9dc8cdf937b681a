import { Pool } from "pg";
import type { SqlClient, SqlSession } from "./sql-client";

export function postgresSqlClient(pool: Pool): SqlClient {
  const query = async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
  return {
    query,
    async exec(sql: string) {
      await pool.query(sql);
    },
    async withSession(fn) {
      const client = await pool.connect();
      const session: SqlSession = {
        query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
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
