import { Client, type Pool } from "pg";
import type { Listen, QueryOptions, SqlClient, SqlSession } from "./sql-client";

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

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries). A lost connection
 * is reopened with backoff, and `onGap` tells the caller that notifications may have been missed.
 */
export function postgresListen(connectionString: string, retryMs = { first: 200, max: 5_000 }): Listen {
  return async (channel, onPayload, onGap) => {
    let client: Client | undefined;
    let closed = false;
    let retry: NodeJS.Timeout | undefined;
    let delay = retryMs.first;

    const open = async () => {
      const next = new Client({ connectionString });
      next.on("notification", (message) => {
        if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
      });
      // A connection lost later (server restart, network) is reopened; pg emits "error" then "end".
      next.on("error", () => undefined);
      next.on("end", () => {
        if (client === next) lost();
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${quoteIdent(channel)}`);
      } catch (err) {
        await next.end().catch(() => undefined);
        throw err;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      delay = retryMs.first;
    };

    const lost = () => {
      client = undefined;
      if (closed || retry) return;
      retry = setTimeout(async () => {
        retry = undefined;
        try {
          await open();
          onGap();
        } catch {
          delay = Math.min(delay * 2, retryMs.max);
          lost();
        }
      }, delay);
      retry.unref();
    };

    await open();
    return async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    };
  };
}
