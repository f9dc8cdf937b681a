import path from "node:path";
import { z } from "zod";
import { parseEnv, protectionConfig, ProtectionEnv } from "@cloudcost/http";

const REPO_ROOT = path.resolve(__dirname, "../../..");

const port = z.coerce.number().int().min(1).max(65535);
const flag = z.enum(["true", "false"]).transform((value) => value === "true");

/** Asymmetric algorithms only: a shared-secret (HS*) or `none` token is never accepted. */
const ALLOWED_ALGORITHMS = ["EdDSA", "ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"] as const;

export const EnvSchema = z
  .object({
    // The images set `production`: then a token issuer must be configured explicitly.
    NODE_ENV: z.string().optional(),
    MAIN_API_PORT: port.default(3000),
    MAIN_API_HOST: z.string().min(1).default("127.0.0.1"),
    // Prometheus' /metrics is on the API port (the gateway and ingress never route it) and, with a
    // port set here, also on a listener of its own that no Service exposes (0: none).
    MAIN_API_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    MAIN_API_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    MAIN_API_DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, ".data/main-api")),
    PRICING_API_PORT: port.default(3001),
    PRICING_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    PRICING_API_TIMEOUT_MS: z.coerce.number().int().min(1).default(5000),
    // Minutes between scheduled compute analysis cycles; 0 disables the schedule.
    ANALYSIS_INTERVAL_MINUTES: z.coerce.number().int().min(0).default(60),
    // How far behind a cycle's start its rolled-up tail ends (compute/rollups.ts): each cycle re-reads
    // the raw samples after it, and a sample that arrives later than this after its timestamp is
    // written twice (queued for the next cycle).
    ANALYSIS_TAIL_MARGIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    SERVICE_TOKEN_SECRET: z.string().min(32).optional(),
    AUTH_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
    AUTH_ISSUER: z.string().min(1).optional(),
    AUTH_AUDIENCE: z.string().min(1).optional(),
    AUTH_ALGORITHMS: z
      .string()
      .default("EdDSA,ES256,RS256")
      .transform((value) =>
        value
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(ALLOWED_ALGORITHMS)).min(1)),
    MAIN_API_DEV_ISSUER: flag.optional(),
    MAIN_API_DEV_ISSUER_DIR: z.string().min(1).default(path.join(REPO_ROOT, ".data/dev-issuer")),
    OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(5000),
    OUTBOX_BACKOFF_BASE_MS: z.coerce.number().int().min(1).default(1000),
    OUTBOX_BACKOFF_MAX_MS: z.coerce.number().int().min(1).default(300_000),
    // Plain http and private, loopback and link-local webhook targets: local development and tests only.
    WEBHOOK_ALLOW_INSECURE: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((value) => value === "1" || value === "true"),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(10_000),
    // A failed delivery waits base x 2^(attempt-1), at most max, and is retried until the window ends.
    WEBHOOK_BACKOFF_BASE_MS: z.coerce.number().int().min(1).default(30_000),
    WEBHOOK_BACKOFF_MAX_MS: z.coerce.number().int().min(1).default(3_600_000),
    // Minutes between budget threshold checks (anomaly detection runs at the first check of each UTC day); 0 disables.
    ALERTS_INTERVAL_MINUTES: z.coerce.number().int().min(0).default(15),
    WEBHOOK_RETRY_HOURS: z.coerce
      .number()
      .int()
      .min(24)
      .max(24 * 14)
      .default(72),
    ...ProtectionEnv,
    // Admission per class of operations (http/admission.ts): how many run at once, how many may wait
    // for a turn, and how long; beyond that a request is refused at once, 503 with Retry-After.
    // A concurrency of 0 turns the class's limit off.
    MAIN_API_READ_CONCURRENCY: z.coerce.number().int().min(0).default(8),
    MAIN_API_READ_QUEUE: z.coerce.number().int().min(0).default(256),
    MAIN_API_WRITE_CONCURRENCY: z.coerce.number().int().min(0).default(4),
    MAIN_API_WRITE_QUEUE: z.coerce.number().int().min(0).default(64),
    MAIN_API_INGEST_CONCURRENCY: z.coerce.number().int().min(0).default(4),
    MAIN_API_INGEST_QUEUE: z.coerce.number().int().min(0).default(64),
    MAIN_API_IMPORT_CONCURRENCY: z.coerce.number().int().min(0).default(2),
    MAIN_API_IMPORT_QUEUE: z.coerce.number().int().min(0).default(16),
    MAIN_API_ADMISSION_WAIT_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
    // PostgreSQL connections of this process, and how long a query waits for one before it is answered 503.
    MAIN_API_DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    MAIN_API_DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    // Where no autovacuum runs (PGlite; PostgreSQL with autovacuum off): seconds between vacuum passes
    // (0: none), and rows written by ingest since the last pass that start one at once (0: only on the schedule).
    MAIN_API_VACUUM_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(30),
    MAIN_API_VACUUM_AFTER_ROWS: z.coerce.number().int().min(0).default(100_000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
    /** The largest FOCUS file POST .../spend/imports accepts, in bytes as sent (compressed). */
    SPEND_IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(1024 ** 3),
    /** Seconds after its first part (or manifest) when an incomplete import session is dropped. */
    SPEND_IMPORT_SESSION_TTL: z.coerce
      .number()
      .int()
      .min(1)
      .default(24 * 3600),
    /** Minutes between sweeps of expired import sessions; 0 disables (a new part of an expired session still starts it over). */
    SPEND_IMPORT_SESSION_SWEEP_MINUTES: z.coerce.number().int().min(0).default(15),
  })
  .superRefine((e, ctx) => {
    if (e.AUTH_JWKS_URL && (!e.AUTH_ISSUER || !e.AUTH_AUDIENCE)) {
      ctx.addIssue({ code: "custom", path: ["AUTH_ISSUER"], message: "AUTH_ISSUER and AUTH_AUDIENCE are required with AUTH_JWKS_URL" });
    }
    if (e.NODE_ENV === "production" && !e.AUTH_JWKS_URL && e.MAIN_API_DEV_ISSUER !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_JWKS_URL"],
        message:
          "required in production (with AUTH_ISSUER and AUTH_AUDIENCE); MAIN_API_DEV_ISSUER=true runs the development issuer instead, for a local demo only",
      });
    } else if (!e.AUTH_JWKS_URL && e.MAIN_API_DEV_ISSUER === false) {
      ctx.addIssue({ code: "custom", path: ["MAIN_API_DEV_ISSUER"], message: "no token issuer left: set AUTH_JWKS_URL or enable the dev issuer" });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

/** Parses the environment once; a bad value names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnv(EnvSchema, env, "main-api");
  const production = e.NODE_ENV === "production";
  // Outside production the development issuer is on unless a real provider is configured; in
  // production only MAIN_API_DEV_ISSUER=true turns it on (anyone with its key mints any identity).
  const devIssuer = e.MAIN_API_DEV_ISSUER ?? (!production && !e.AUTH_JWKS_URL);
  return {
    port: e.MAIN_API_PORT,
    host: e.MAIN_API_HOST,
    metricsPort: e.MAIN_API_METRICS_PORT,
    databaseUrl: e.MAIN_API_DATABASE_URL,
    dataDir: e.MAIN_API_DATA_DIR,
    /** PostgreSQL only: connections, and the longest wait for one (0: no bound). */
    databasePool: { size: e.MAIN_API_DATABASE_POOL_SIZE, waitMs: e.MAIN_API_DATABASE_POOL_WAIT_MS },
    /** Per class of operations: concurrency, waiting line and longest wait (http/admission.ts). */
    admission: {
      read: { concurrency: e.MAIN_API_READ_CONCURRENCY, queue: e.MAIN_API_READ_QUEUE, maxWaitMs: e.MAIN_API_ADMISSION_WAIT_MS },
      write: { concurrency: e.MAIN_API_WRITE_CONCURRENCY, queue: e.MAIN_API_WRITE_QUEUE, maxWaitMs: e.MAIN_API_ADMISSION_WAIT_MS },
      ingest: { concurrency: e.MAIN_API_INGEST_CONCURRENCY, queue: e.MAIN_API_INGEST_QUEUE, maxWaitMs: e.MAIN_API_ADMISSION_WAIT_MS },
      import: { concurrency: e.MAIN_API_IMPORT_CONCURRENCY, queue: e.MAIN_API_IMPORT_QUEUE, maxWaitMs: e.MAIN_API_ADMISSION_WAIT_MS },
    },
    /** The service's own vacuuming where the database has no autovacuum (compute/maintenance.ts). */
    vacuum: { intervalMs: e.MAIN_API_VACUUM_INTERVAL_SECONDS * 1000, afterRows: e.MAIN_API_VACUUM_AFTER_ROWS },
    pricingApiUrl: e.PRICING_API_URL ?? `http://127.0.0.1:${e.PRICING_API_PORT}`,
    pricingApiTimeoutMs: e.PRICING_API_TIMEOUT_MS,
    analysisIntervalMinutes: e.ANALYSIS_INTERVAL_MINUTES,
    alertsIntervalMinutes: e.ALERTS_INTERVAL_MINUTES,
    analysisTailMarginMs: e.ANALYSIS_TAIL_MARGIN_SECONDS * 1000,
    /** Shared with the pricing API; unset: generated once under `.data/` for local use. */
    serviceTokenSecret: e.SERVICE_TOKEN_SECRET,
    dataRoot: path.join(REPO_ROOT, ".data"),
    auth: {
      /** The OpenID Connect provider; absent when only the development issuer is used. */
      // (the schema requires AUTH_ISSUER and AUTH_AUDIENCE with AUTH_JWKS_URL)
      provider:
        e.AUTH_JWKS_URL && e.AUTH_ISSUER && e.AUTH_AUDIENCE ? { jwksUrl: e.AUTH_JWKS_URL, issuer: e.AUTH_ISSUER, audience: e.AUTH_AUDIENCE } : undefined,
      algorithms: e.AUTH_ALGORITHMS,
      /** See `devIssuer` above; MAIN_API_DEV_ISSUER=true adds it beside a real provider. */
      devIssuer,
      /** Logged at every start when the development issuer runs in production. */
      devIssuerWarning:
        production && devIssuer
          ? "MAIN_API_DEV_ISSUER=true: the development issuer runs in production; anyone who reads its key can mint a verified token for any e-mail"
          : undefined,
      devIssuerDir: e.MAIN_API_DEV_ISSUER_DIR,
    },
    outbox: { pollMs: e.OUTBOX_POLL_MS, backoffBaseMs: e.OUTBOX_BACKOFF_BASE_MS, backoffMaxMs: e.OUTBOX_BACKOFF_MAX_MS },
    webhooks: {
      allowInsecure: e.WEBHOOK_ALLOW_INSECURE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      backoffBaseMs: e.WEBHOOK_BACKOFF_BASE_MS,
      backoffMaxMs: e.WEBHOOK_BACKOFF_MAX_MS,
      retryWindowMs: e.WEBHOOK_RETRY_HOURS * 3_600_000,
      /** Logged at every start when insecure targets are allowed in production. */
      insecureWarning:
        production && e.WEBHOOK_ALLOW_INSECURE
          ? "WEBHOOK_ALLOW_INSECURE=1 in production: webhooks may target plain http and private, loopback and link-local addresses (SSRF)"
          : undefined,
    },
    logLevel: e.LOG_LEVEL,
    // The main API authenticates `Authorization` only: that is the credential its limit counts.
    protection: protectionConfig(e, ["authorization"]),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    spendImportMaxBytes: e.SPEND_IMPORT_MAX_BYTES,
    spendImportSessionTtlMs: e.SPEND_IMPORT_SESSION_TTL * 1000,
    spendImportSessionSweepMinutes: e.SPEND_IMPORT_SESSION_SWEEP_MINUTES,
  };
}
