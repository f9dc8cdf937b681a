import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@cloudcost/credentials";
import type { TestContext } from "./context";

/** A new plaintext `bl_` key for `accountId` (the account is created on first use). */
export async function createApiKey(ctx: TestContext, accountId = "acct_a"): Promise<string> {
  return (await ctx.apiKeys.create(accountId, "test key")).key;
}

export type KeyRole = "viewer" | "member" | "admin";

/** A key provisioned as the main API's key sync does, with its effective role (and suspension). */
export async function provisionKey(ctx: TestContext, accountId: string, role: KeyRole, suspended = false): Promise<string> {
  const key = generateApiKey();
  await syncKey(ctx, accountId, key, role, suspended);
  return key;
}

/** Re-sends a key's state, as the main API does when its creator changes. */
export async function syncKey(ctx: TestContext, accountId: string, key: string, role: KeyRole, suspended = false): Promise<void> {
  await ctx.apiKeys.provision({ accountId, keyHash: hashApiKey(key), prefix: apiKeyDisplayPrefix(key), name: `${role} key`, role, suspended });
}
