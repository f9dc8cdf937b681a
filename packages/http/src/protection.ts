import { createHash } from "node:crypto";
import type { Request, RequestHandler } from "express";
import cors from "cors";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import helmet from "helmet";
import { z } from "zod";
import { HttpError } from "./http-error";

export interface RateLimitOptions {
  windowMs: number;
  /** Requests per window per credential (API key or bearer token); 0 turns the limit off. */
  perCredential: number;
  /** Requests per window per client IP; 0 turns the limit off. */
  perIp: number;
}

/** The credential a request carries, hashed (the limiter's memory never holds a secret). */
function credentialOf(req: Request): string | undefined {
  const header = req.headers["x-api-key"] ?? req.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  return value ? createHash("sha256").update(value).digest("base64url") : undefined;
}

const tooMany = (what: string) => (_req: Request, _res: unknown, next: (err: unknown) => void) =>
  next(new HttpError(429, "rate_limited", `Too many requests ${what}; retry after the time in the RateLimit header.`));

/**
 * Per-IP and per-credential rate limits (in-process counters: each replica counts its own), with
 * the IETF `RateLimit` / `RateLimit-Policy` headers; a 429 is rendered in the API's own shape.
 */
export function rateLimits(options: RateLimitOptions): RequestHandler[] {
  const limiters: RequestHandler[] = [];
  if (options.perIp > 0) {
    limiters.push(
      rateLimit({
        windowMs: options.windowMs,
        limit: options.perIp,
        identifier: "ip",
        standardHeaders: "draft-8",
        legacyHeaders: false,
        keyGenerator: (req) => ipKeyGenerator(req.ip ?? "unknown"),
        handler: tooMany("from this address"),
      }),
    );
  }
  if (options.perCredential > 0) {
    limiters.push(
      rateLimit({
        windowMs: options.windowMs,
        limit: options.perCredential,
        identifier: "credential",
        standardHeaders: "draft-8",
        legacyHeaders: false,
        skip: (req) => !credentialOf(req),
        keyGenerator: (req) => credentialOf(req)!,
        handler: tooMany("for this credential"),
      }),
    );
  }
  return limiters;
}

/** Security headers for a JSON API whose only page is the self-hosted /docs. */
export function securityHeaders(): RequestHandler {
  return helmet({ crossOriginResourcePolicy: { policy: "same-site" } });
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
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((value) => value.split(",").map((item) => item.trim()).filter(Boolean)),
};

export function protectionConfig(e: {
  RATE_LIMIT_WINDOW_MS: number;
  RATE_LIMIT_PER_CREDENTIAL: number;
  RATE_LIMIT_PER_IP: number;
  CORS_ORIGINS: string[];
}) {
  return {
    rateLimit: { windowMs: e.RATE_LIMIT_WINDOW_MS, perCredential: e.RATE_LIMIT_PER_CREDENTIAL, perIp: e.RATE_LIMIT_PER_IP },
    corsOrigins: e.CORS_ORIGINS,
  };
}

/** Helmet, CORS (when configured) and rate limits, in that order. */
export function protections(config: ReturnType<typeof protectionConfig>): RequestHandler[] {
  const cors = corsPolicy(config.corsOrigins);
  return [securityHeaders(), ...(cors ? [cors] : []), ...rateLimits(config.rateLimit)];
}
