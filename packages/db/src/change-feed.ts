import type { Listen, SqlSession } from "./sql-client";

/** The one channel every process of a service listens on; the payload is `<topic>\t<key>`. */
export const CHANGE_CHANNEL = "cloudcost_changes";

/** `SELECT pg_notify(...)` with its parameters: run it inside the transaction that made the change to announce it at commit. */
export function changeNotification(topic: string, key: string): { sql: string; params: [string, string] } {
  if (topic.includes("\t")) throw new Error(`A change topic has no tab: ${topic}`);
  return { sql: "SELECT pg_notify($1, $2)::text", params: [CHANGE_CHANNEL, `${topic}\t${key}`] };
}

/** `key` changed; null: changes may have been missed (the listening connection was lost), so drop everything. */
export type ChangeHandler = (key: string | null) => void;

/**
 * Tells every process using one database (every replica of a service) that something cached
 * changed, through PostgreSQL LISTEN/NOTIFY: an in-process cache subscribes to a topic and drops
 * the key it is told about. On the embedded database the same notifications come back to the one
 * process. Delivery is at most once (a replica that is not listening misses it; it hears of the
 * gap when it listens again), so each cache keeps its TTL as a safety net.
 */
export interface ChangeFeed {
  /** Announces a change after it committed (this process hears it too). Never throws: a failure goes to `onError`. */
  publish(topic: string, key: string): Promise<void>;
  subscribe(topic: string, handler: ChangeHandler): () => void;
  /** Starts listening; resolves once notifications are received. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createChangeFeed(db: { sql: SqlSession; listen: Listen }, onError: (err: unknown) => void = () => undefined): ChangeFeed {
  const handlers = new Map<string, Set<ChangeHandler>>();
  let stop: Promise<() => Promise<void>> | undefined;

  const notify = (topic: string, key: string | null) => {
    for (const handler of handlers.get(topic) ?? []) {
      try {
        handler(key);
      } catch (err) {
        onError(err);
      }
    }
  };
  const onPayload = (payload: string) => {
    const tab = payload.indexOf("\t");
    if (tab > 0) notify(payload.slice(0, tab), payload.slice(tab + 1));
  };
  const onGap = () => {
    for (const topic of handlers.keys()) notify(topic, null);
  };

  return {
    async publish(topic, key) {
      const { sql, params } = changeNotification(topic, key);
      await db.sql.query(sql, params).catch(onError);
    },
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set<ChangeHandler>();
      handlers.set(topic, set);
      set.add(handler);
      return () => void set.delete(handler);
    },
    async start() {
      stop ??= db.listen(CHANGE_CHANNEL, onPayload, onGap);
      await stop;
    },
    async close() {
      const stopping = stop;
      stop = undefined;
      if (stopping) await (await stopping)();
    },
  };
}
