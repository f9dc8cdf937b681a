import { spawnSync } from "node:child_process";
import fs from "node:fs";

// Suites that need nginx (the gateway) or Chromium (the /docs check) from the machine's packages.
// In CI a missing tool fails the suite: a broken install step must not turn suites into skips and
// still land green. Locally the suite is skipped with one line saying what to install.

export type Tool = "nginx" | "chromium";
type Env = Record<string, string | undefined>;

/** `CI` set to anything but an empty string, `0` or `false`, as CI services and `.ci/run` set it. */
export function isCI(env: Env = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/** nginx: NGINX_BIN when set (and then only it), else the usual paths, else the PATH. */
export function findNginx(env: Env = process.env): string | undefined {
  if (env.NGINX_BIN) return fs.existsSync(env.NGINX_BIN) ? env.NGINX_BIN : undefined;
  const found = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  const which = spawnSync("which", ["nginx"], { encoding: "utf8", env: { PATH: env.PATH } });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** Chromium: CHROMIUM_BIN when set, else Debian's /usr/bin/chromium. */
export function findChromium(env: Env = process.env): string | undefined {
  const candidate = env.CHROMIUM_BIN ?? "/usr/bin/chromium";
  return fs.existsSync(candidate) ? candidate : undefined;
}

const FINDERS: Record<Tool, (env: Env) => string | undefined> = { nginx: findNginx, chromium: findChromium };

export type Decision = { action: "run" } | { action: "skip"; message: string } | { action: "fail"; message: string };

/** What a suite does when some of the tools it needs are missing. */
export function decide(suite: string, missing: Tool[], env: Env = process.env): Decision {
  if (missing.length === 0) return { action: "run" };
  const what = `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not installed`;
  const install = `apt-get install ${missing.join(" ")}`;
  if (isCI(env)) return { action: "fail", message: `${suite}: ${what}, and CI must run this suite (${install}).` };
  return { action: "skip", message: `Skipping ${suite}: ${what} (${install}).` };
}

/**
 * `describe` when every tool is there. Otherwise, in CI, throws (Jest reports the file as failed to
 * run); locally, writes one line to stderr and returns `describe.skip`.
 */
export function describeWith(suite: string, tools: Tool[], env: Env = process.env): jest.Describe {
  const missing = tools.filter((tool) => !FINDERS[tool](env));
  const decision = decide(suite, missing, env);
  if (decision.action === "fail") throw new Error(decision.message);
  if (decision.action === "skip") {
    process.stderr.write(`${decision.message}\n`);
    return describe.skip;
  }
  return describe;
}
