import type { IncomingMessage } from "node:http";
import { hash } from "node:crypto";
import { isIPv6 } from "node:net";
import type { Request, RequestHandler, Response } from "express";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { HttpError } from "./http-error";
import type { Redis } from "./redis";

/**
 * The headers a service authenticates, in the order it reads them: the per-credential limit must
 * count exactly that credential, or a client adds a header the service ignores to get a fresh budget.
 */
export type CredentialHeader = "x-api-key" | "authorization";

export interface RateLimitOptions {
  windowMs: number;
  /** Requests per window per credential (API key or bearer token); 0 turns the limit off. */
  perCredential: number;
  /** Requests per window per client IP; 0 turns the limit off. */
  perIp: number;
  /** Where the service reads its credential (the main API: `authorization` only). */
  credentialHeaders: readonly CredentialHeader[];
  /** Where the counts live: absent, in this process (each replica counts its own). */
  store?: RateLimitStore;
}

/**
 * Counts shared by every replica in Redis (and kept across restarts): one key per limit and client,
 * `<keyPrefix>:<limit>:<client>`, expiring with its window. While Redis is unreachable each
 * process counts in memory (rate-limiter-flexible's insurance limiter) rather than refusing or
 * waiting.
 */
export interface RateLimitStore {
  redis: Redis;
  /** Separates the services' counts in one Redis (e.g. `rl:pricing-api`). */
  keyPrefix: string;
}

/** The pricing API's order: `X-API-Key`, else `Authorization: Bearer`. */
export const API_KEY_OR_BEARER: readonly CredentialHeader[] = ["x-api-key", "authorization"];

const CREDENTIAL = Symbol("credential");

export interface RequestCredential {
  /** The value of the first of the service's credential headers present: a bearer's token, else the header whole. */
  token: string;
  /** Lower-case hex SHA-256 of `token` (the form API keys are stored and looked up in). */
  hash: string;
}

function headerToken(req: IncomingMessage, name: CredentialHeader): string | undefined {
  if (name === "x-api-key") {
    const header = req.headers["x-api-key"];
    return (Array.isArray(header) ? header[0] : header)?.trim() || undefined;
  }
  const auth = req.headers.authorization?.trim();
  return (auth && /^bearer\s/i.test(auth) ? auth.slice(7).trim() : auth) || undefined;
}

/**
 * The credential a request carries in `headers` (first present wins), hashed once per request: the
 * rate limiter counts by the hash (its memory never holds a secret) and authentication can look a
 * key up by the same hash.
 */
export function requestCredential(req: IncomingMessage, headers: readonly CredentialHeader[] = API_KEY_OR_BEARER): RequestCredential | undefined {
  const memo = req as IncomingMessage & { [CREDENTIAL]?: { headers: readonly CredentialHeader[]; credential: RequestCredential | undefined } };
  const known = memo[CREDENTIAL];
  if (known && known.headers === headers) return known.credential;
  let token: string | undefined;
  for (const name of headers) {
    token = headerToken(req, name);
    if (token) break;
  }
  const credential = token ? { token, hash: hash("sha256", token, "hex") } : undefined;
  memo[CREDENTIAL] = { headers, credential };
  return credential;
}

/** `req.ip`, read straight from the socket when no proxy is trusted (Express would parse X-Forwarded-For to discard it). */
const clientAddress = (req: Request) => {
  const trusted: unknown = req.app.get("trust proxy");
  return trusted === false || trusted === 0 ? req.socket.remoteAddress : req.ip;
};

/**
 * The client address a limit counts: IPv4 as is; IPv6 by its /64 prefix, the block one subscriber
 * usually holds (counting single IPv6 addresses would let one client rotate through 2^64 of them).
 */
export function ipBucket(ip: string | undefined): string {
  if (!ip) return "unknown";
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

interface Limit {
  name: "ip" | "credential";
  points: number;
  limiter: RateLimiterAbstract;
  /** `"name";q=..;w=..`, the policy item of the RateLimit-Policy header (fixed per limit). */
  policy: string;
  what: string;
  keyOf(req: Request): string | undefined;
}

interface Applied {
  item: Limit;
  consumed: Promise<RateLimiterRes>;
}

const windowSeconds = (windowMs: number) => Math.max(1, Math.ceil(windowMs / 1000));

function limiter(name: Limit["name"], points: number, duration: number, store: RateLimitStore | undefined): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ points, duration });
  if (!store) return memory;
  return new RateLimiterRedis({
    storeClient: store.redis,
    keyPrefix: `${store.keyPrefix}:${name}`,
    points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

function limit(name: Limit["name"], points: number, options: RateLimitOptions, what: string, keyOf: Limit["keyOf"]): Limit {
  const duration = windowSeconds(options.windowMs);
  return {
    name,
    points,
    limiter: limiter(name, points, duration, options.store),
    policy: `"${name}";q=${points};w=${duration}`,
    what,
    keyOf,
  };
}

function tooMany(res: Response, item: Limit, state: RateLimiterRes): HttpError {
  res.setHeader("Retry-After", String(Math.max(1, Math.ceil(state.msBeforeNext / 1000))));
  return new HttpError("rate_limited", `Too many requests ${item.what}; retry after the time in the RateLimit header.`);
}

/**
 * Per-IP and per-credential fixed-window limits (rate-limiter-flexible: in process, each replica
 * counting its own, or in Redis, shared by all: `options.store`), reported in the IETF `RateLimit` / `RateLimit-Policy` headers (draft 8,
 * one list item per limit); a 429 carries Retry-After and is rendered in the API's own shape.
 * One middleware for both limits: it runs on every request.
 */
export function rateLimits(options: RateLimitOptions): RequestHandler[] {
  const limits: Limit[] = [];
  if (options.perIp > 0) limits.push(limit("ip", options.perIp, options, "from this address", (req) => ipBucket(clientAddress(req))));
  const credentialOf = (req: Request) => requestCredential(req, options.credentialHeaders)?.hash;
  if (options.perCredential > 0) limits.push(limit("credential", options.perCredential, options, "for this credential", credentialOf));
  if (limits.length === 0) return [];

  // The RateLimit-Policy value per combination of applied limits (an anonymous request has no
  // credential limit), built once.
  const policies = new Map<string, string>();
  const policyOf = (applied: Applied[]) => {
    const names = applied.map((a) => a.item.name).join();
    let policy = policies.get(names);
    if (policy === undefined) {
      policy = applied.map((a) => a.item.policy).join(", ");
      policies.set(names, policy);
    }
    return policy;
  };

  /** Reads every limit's state (one tick for all), sets the headers; the refusal or store failure, if any. */
  async function settle(applied: Applied[], res: Response): Promise<HttpError | undefined> {
    const outcomes = await Promise.allSettled(applied.map((a) => a.consumed));
    const states: string[] = [];
    let refused: HttpError | undefined;
    for (const [i, outcome] of outcomes.entries()) {
      const { item } = applied[i];
      // rate-limiter-flexible rejects with the state when the limit is exceeded
      const state: unknown = outcome.status === "fulfilled" ? outcome.value : outcome.reason;
      if (!(state instanceof RateLimiterRes)) throw state ?? new Error("rate limit store failed"); // the store failed, not the client
      states.push(`"${item.name}";r=${state.remainingPoints};t=${Math.max(0, Math.ceil(state.msBeforeNext / 1000))}`);
      if (state.remainingPoints === 0 && state.consumedPoints > item.points) refused ??= tooMany(res, item, state);
    }
    res.setHeader("RateLimit-Policy", policyOf(applied));
    res.setHeader("RateLimit", states.join(", "));
    return refused;
  }

  return [
    (req, res, next) => {
      const applied: Applied[] = [];
      for (const item of limits) {
        const key = item.keyOf(req);
        if (key !== undefined) applied.push({ item, consumed: item.limiter.consume(key) });
      }
      if (applied.length === 0) return next();
      settle(applied, res).then(next, next);
    },
  ];
}
