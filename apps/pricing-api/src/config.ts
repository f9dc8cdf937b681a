import path from "node:path";
import { z } from "zod";
import { API_KEY_OR_BEARER, parseEnv, protectionConfig, ProtectionEnv } from "@cloudcost/http";

const REPO_ROOT = path.resolve(__dirname, "../../..");

export const EnvSchema = z.object({
  PRICING_API_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
  PRICING_API_HOST: z.string().min(1).default("127.0.0.1"),
  // Prometheus' /metrics is on the API port (the gateway and ingress never route it) and, with a
  // port set here, also on a listener of its own that no Service exposes (0: none).
  PRICING_API_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  PRICING_API_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  PRICING_API_DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, ".data/pricing-api")),
  SERVICE_TOKEN_SECRET: z.string().min(32).optional(),
  LABEL_PREFIX: z.string().min(1).max(200).default("costs.example.com"),
  ...ProtectionEnv,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
  // How often the service checks whether another process (catalog:import) replaced the compute catalog; 0 = never.
  COMPUTE_CATALOG_REFRESH_MS: z.coerce.number().int().min(0).default(60000),
  // Where no autovacuum runs (PGlite; PostgreSQL with autovacuum off): seconds between the service's own vacuum passes (0: none).
  PRICING_API_VACUUM_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(30),
});

export type Config = ReturnType<typeof loadConfig>;

/** Parses the environment once; a bad value names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnv(EnvSchema, env, "pricing-api");
  return {
    port: e.PRICING_API_PORT,
    host: e.PRICING_API_HOST,
    metricsPort: e.PRICING_API_METRICS_PORT,
    databaseUrl: e.PRICING_API_DATABASE_URL,
    dataDir: e.PRICING_API_DATA_DIR,
    labelPrefix: e.LABEL_PREFIX,
    /** Shared with the main API; unset: generated once under `.data/` for local use. */
    serviceTokenSecret: e.SERVICE_TOKEN_SECRET,
    dataRoot: path.join(REPO_ROOT, ".data"),
    logLevel: e.LOG_LEVEL,
    protection: protectionConfig(e, API_KEY_OR_BEARER),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    computeCatalogRefreshMs: e.COMPUTE_CATALOG_REFRESH_MS,
    vacuumIntervalMs: e.PRICING_API_VACUUM_INTERVAL_SECONDS * 1000,
  };
}
