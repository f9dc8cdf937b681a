import path from "node:path";
import { z } from "zod";
import { parseEnv } from "@cloudcost/http";

const REPO_ROOT = path.resolve(__dirname, "../../..");

const port = z.coerce.number().int().min(1).max(65535);

export const EnvSchema = z.object({
  MAIN_API_PORT: port.default(3000),
  MAIN_API_HOST: z.string().min(1).default("127.0.0.1"),
  MAIN_API_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  MAIN_API_DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, ".data/main-api")),
  PRICING_API_PORT: port.default(3001),
  PRICING_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
});

export type Config = ReturnType<typeof loadConfig>;

/** Parses the environment once; a bad value names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const e = parseEnv(EnvSchema, env, "main-api");
  return {
    port: e.MAIN_API_PORT,
    host: e.MAIN_API_HOST,
    databaseUrl: e.MAIN_API_DATABASE_URL,
    dataDir: e.MAIN_API_DATA_DIR,
    pricingApiUrl: e.PRICING_API_URL ?? `http://127.0.0.1:${e.PRICING_API_PORT}`,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
