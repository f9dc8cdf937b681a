import type { TestContext } from "./context";

/** A new plaintext `bl_` key for `accountId` (the account is created on first use). */
export async function createApiKey(ctx: TestContext, accountId = "acct_a"): Promise<string> {
  return (await ctx.apiKeys.create(accountId, "test key")).key;
}
