import { isIP } from "node:net";
import type { RequestHandler } from "express";
import cors from "cors";
import helmet from "helmet";
import { z } from "zod";
import { rateLimits, type CredentialHeader, type RateLimitStore } from "./rate-limit";

const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: "deny" },
  crossOriginResourcePolicy: { policy: "same-site" },
  // Headers for HTML pages in browsers that no longer exist or do not render a JSON answer
  // (IE8's download prompt, the retired XSS auditor, DNS prefetching, agent clusters); every
  // header costs CPU on every response, and these protect nothing here.
  xDownloadOptions: false,
  xXssProtection: false,
  xDnsPrefetchControl: false,
  originAgentCluster: false,
};

/** The headers helmet sets and removes with `options`, read once from a recording response. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): { set: [string, string][]; removed: string[] } {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader: (name: string, value: string) => set.set(name, String(value)),
    removeHeader: (name: string) => {
      set.delete(name);
      removed.add(name);
    },
  };
  let done = false;
  helmet(options)({} as never, recorder as never, () => {
    done = true;
  });
  if (!done) throw new Error("helmet did not finish synchronously");
  return { set: [...set], removed: [...removed] };
}

/**
 * Security headers for a JSON API (helmet's set). The content security policy is the strict one
 * for responses that are never rendered as a page (`default-src 'none'`, as OWASP's REST guidance
 * has it), a third of the size of helmet's page policy. The one HTML page,
 * /docs, sets its own policy (packages/openapi: DOCS_PAGE_CSP).
 *
 * These options make every header a constant, so helmet runs once at start and each request gets
 * the recorded list in one middleware (helmet itself chains a middleware per header).
 */
export function securityHeaders(): RequestHandler {
  const { set, removed } = helmetHeaders(HELMET_OPTIONS);
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

/** CORS is off unless origins are configured (comma-separated list, or `*`). */
export function corsPolicy(origins: string[]): RequestHandler | undefined {
  if (origins.length === 0) return undefined;
  return cors({
    origin: origins.includes("*") ? "*" : origins,
    allowedHeaders: ["Authorization", "Content-Type", "X-API-Key", "X-Request-Id", "X-Service-Tenant-ID", "Idempotency-Key"],
    exposedHeaders: ["X-Request-Id", "RateLimit", "RateLimit-Policy", "Retry-After"],
    maxAge: 600,
  });
}

/** Environment variables of the protections, spread into each service's schema. */
export const ProtectionEnv = {
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  RATE_LIMIT_PER_CREDENTIAL: z.coerce.number().int().min(0).default(1200),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(0).default(3000),
  // Unset: rate limits count per process. Set: in Redis, shared by every replica (docs/scaling.md).
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  TRUST_PROXY: z
    .string()
    .default("")
    .transform((value, ctx): TrustProxy => {
      const text = value.trim();
      if (text === "" || text === "false" || text === "0") return false;
      if (/^\d+$/.test(text)) return Number(text);
      const items = text.split(",").map((item) => item.trim());
      const bad = items.filter((item) => !PROXY_NAMES.has(item) && !isIP(item.split("/")[0]));
      if (bad.length > 0) {
        ctx.addIssue({ code: "custom", message: `expected a hop count or addresses, CIDR ranges, loopback, linklocal or uniquelocal; got ${bad.join(", ")}` });
        return z.NEVER;
      }
      return items;
    }),
};

/** Express's `trust proxy`: false, how many proxy hops to trust, or which proxy addresses. */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** `credentialHeaders`: the headers the service authenticates, in its order (see RateLimitOptions). */
export function protectionConfig(
  e: {
    RATE_LIMIT_WINDOW_MS: number;
    RATE_LIMIT_PER_CREDENTIAL: number;
    RATE_LIMIT_PER_IP: number;
    REDIS_URL?: string;
    CORS_ORIGINS: string[];
    TRUST_PROXY?: TrustProxy;
  },
  credentialHeaders: readonly CredentialHeader[],
) {
  return {
    rateLimit: { windowMs: e.RATE_LIMIT_WINDOW_MS, perCredential: e.RATE_LIMIT_PER_CREDENTIAL, perIp: e.RATE_LIMIT_PER_IP, credentialHeaders },
    corsOrigins: e.CORS_ORIGINS,
    /** The shared store of rate-limit counts; the service connects to it once (compose.ts). */
    redisUrl: e.REDIS_URL,
    /**
     * Which proxies' `X-Forwarded-For` to believe for the client address (rate limits per IP,
     * logs). Off by default: a directly exposed service must not let a client pick its own address.
     * Behind the gateway, 1 (one hop); without it every client would share the gateway's limit.
     */
    trustProxy: e.TRUST_PROXY ?? false,
  };
}

/** Helmet, CORS (when configured) and rate limits (counted in `store` when given), in that order. */
export function protections(config: ReturnType<typeof protectionConfig>, store?: RateLimitStore): RequestHandler[] {
  const cors = corsPolicy(config.corsOrigins);
  return [securityHeaders(), ...(cors ? [cors] : []), ...rateLimits({ ...config.rateLimit, store })];
}

export {
  rateLimits,
  requestCredential,
  API_KEY_OR_BEARER,
  type CredentialHeader,
  type RateLimitOptions,
  type RateLimitStore,
  type RequestCredential,
} from "./rate-limit";
