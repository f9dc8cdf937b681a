import type { z } from "zod";

export class ConfigError extends Error {}

/** Parses the environment with `schema` once; empty values count as unset; errors name the variable. */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, service: string): z.output<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new ConfigError(`Invalid environment for ${service}:\n${lines.join("\n")}`);
}

/** For a start script's catch: a config error prints as is; anything else as a one-line cause. */
export function startFailure(service: string, err: unknown): never {
  console.error(err instanceof ConfigError ? err.message : `${service} failed to start: ${(err as Error)?.message ?? err}`);
  process.exit(1);
}
