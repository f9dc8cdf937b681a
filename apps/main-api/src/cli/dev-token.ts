import { parseArgs } from "node:util";
import { z } from "zod";
import { loadDevIssuerKey, mintDevToken } from "../auth/dev-issuer";
import { loadConfig } from "../config";

// `pnpm --silent dev-token --email E [--unverified] [--sub S] [--ttl SECONDS]`: prints a JWT of the
// development issuer (the key the running main API trusts; created on first use).
const USAGE = "usage: pnpm --silent dev-token --email <e-mail> [--unverified] [--sub <subject>] [--ttl <seconds, negative = expired>]";

/** parseArgs reads `--ttl -60` as a flag named 6/0: join a negative number to its option first. */
export function joinNegativeValues(args: string[], options: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (options.includes(args[i]) && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i++;
    } else out.push(args[i]);
  }
  return out;
}

export function parseDevTokenArgs(argv: string[]) {
  const { values } = parseArgs({
    args: joinNegativeValues(argv, ["--ttl"]),
    options: { email: { type: "string" }, unverified: { type: "boolean" }, sub: { type: "string" }, ttl: { type: "string" } },
    strict: true,
  });
  const email = z.email().safeParse(values.email);
  if (!email.success) throw new Error(`--email must be an e-mail address\n${USAGE}`);
  const ttl = values.ttl === undefined ? 3600 : Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl === 0) throw new Error(`--ttl must be a non-zero whole number of seconds\n${USAGE}`);
  if (values.sub !== undefined && (!values.sub || values.sub.length > 255)) throw new Error(`--sub must be 1-255 characters\n${USAGE}`);
  return { email: email.data, verified: !values.unverified, subject: values.sub, ttlSeconds: ttl };
}

async function main() {
  const options = parseDevTokenArgs(process.argv.slice(2));
  const config = loadConfig();
  if (!config.auth.devIssuer)
    throw new Error("The development issuer is off (AUTH_JWKS_URL is set, or NODE_ENV=production): set MAIN_API_DEV_ISSUER=true to use it.");
  const token = await mintDevToken(loadDevIssuerKey(config.auth.devIssuerDir), options);
  process.stdout.write(`${token}\n`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
