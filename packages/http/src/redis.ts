import { Redis } from "ioredis";
import type { Logger } from "pino";

export type { Redis } from "ioredis";

/**
 * A client for the shared store (`REDIS_URL`). It reconnects by itself; while it is down a command
 * fails at once (no offline queue, no retry per request) so that callers fall back to their
 * in-process state instead of holding requests. An outage and the recovery are logged once each.
 */
export function connectRedis(url: string, logger: Logger): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let down = false;
  client.on("error", (err: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: { message: err.message } }, "redis unavailable: rate limits count in this process until it is back");
  });
  client.on("ready", () => {
    if (down) logger.info("redis reachable again");
    down = false;
  });
  return client;
}

/** Resolves when the client is connected, or after `timeoutMs` (false): a service starts either way. */
export function redisReady(client: Redis, timeoutMs = 5_000): Promise<boolean> {
  if (client.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off("ready", onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on("ready", onReady);
  });
}

/** Closes the connection (QUIT when connected, else at once). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === "ready") await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
