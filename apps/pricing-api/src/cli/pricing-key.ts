import { parseArgs } from "node:util";
import { CreatedPricingApiKey, ServiceId } from "@cloudcost/contracts";
import { loadServiceSecret, signServiceToken } from "@cloudcost/credentials";
import { openMigratedDatabase } from "@cloudcost/db";
import { createLogger } from "@cloudcost/http";
import { ApiKeyStore } from "../auth/api-key-store";
import { loadConfig } from "../config";
import { createPrisma, MIGRATIONS_DIR } from "../db";

// `pnpm --silent pricing-key --account A [--name N]`: prints a new key for account A. While the
// service runs it asks the service (the embedded database has one owner); otherwise it opens the
// database itself.
const USAGE = "usage: pnpm --silent pricing-key --account <account-id> [--name <name>]";

async function viaService(baseUrl: string, secret: Uint8Array, account: string, name?: string): Promise<string | undefined> {
  let res: Response;
  try {
    const path = `/internal/accounts/${encodeURIComponent(account)}/api-keys`;
    res = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await signServiceToken(secret, { method: "POST", path }, "pricing-key-cli")}` },
      body: JSON.stringify({ name: name ?? null }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return undefined; // not running
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (res.status !== 201) throw new Error(`The running pricing API refused: ${res.status} ${body.error ?? ""}`.trim());
  return CreatedPricingApiKey.parse(body).key;
}

async function direct(account: string, name?: string): Promise<string> {
  const config = loadConfig();
  const logger = createLogger("pricing-key", "warn");
  const db = await openMigratedDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const prisma = createPrisma(db.adapter);
  try {
    return (await new ApiKeyStore(prisma).create(account, name)).key;
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}

async function main() {
  const { values } = parseArgs({ options: { account: { type: "string" }, name: { type: "string" } } });
  if (!values.account) throw new Error(`--account is required\n${USAGE}`);
  const account = ServiceId.safeParse(values.account);
  if (!account.success) throw new Error("--account must be 1-64 characters of A-Z a-z 0-9 _ -");
  const config = loadConfig();
  const secret = loadServiceSecret(config.serviceTokenSecret, config.dataRoot);
  const baseUrl = process.env.PRICING_API_URL ?? `http://127.0.0.1:${config.port}`;
  const key = (await viaService(baseUrl, secret, account.data, values.name)) ?? (await direct(account.data, values.name));
  process.stdout.write(`${key}\n`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
