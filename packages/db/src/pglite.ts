import { PGlite } from "@electric-sql/pglite";
import type { Listen, SqlClient, SqlSession } from "./sql-client";

export function pgliteSqlClient(db: PGlite): SqlClient {
  const session: SqlSession = {
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await db.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
  // PGlite has exactly one connection, so "a dedicated session" means exclusive use of it: sessions
  // queue behind each other (an advisory lock taken twice by one connection would not exclude).
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ...session,
    withSession(fn) {
      const run = queue.then(() => fn(session));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<PGlite> {
  const db = new PGlite(dataDir, loadDataDir ? { loadDataDir } : {});
  await db.waitReady;
  return db;
}

/** LISTEN on the one connection: notifications come back to this process (there is no other). */
export function pgliteListen(db: PGlite): Listen {
  return async (channel, onPayload) => {
    const unlisten = await db.listen(channel, onPayload);
    return async () => {
      if (!db.closed) await unlisten();
    };
  };
}
