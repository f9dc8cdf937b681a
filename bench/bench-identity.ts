import type { Express } from "express";
import type { Config } from "../apps/main-api/src/config";
import { signUp } from "../apps/main-api/test/helpers/identity";

let n = 0;

/** A signed-up organization (development issuer) and the headers of its owner. */
export async function benchCredentials(ctx: { app: Express; config: Config }) {
  n++;
  const owner = await signUp(ctx, { email: `bench-${n}-${Date.now()}@bench.test`, company: `Bench ${n}` });
  return { headers: { authorization: `Bearer ${owner.token}` }, tenantId: owner.tenant.id, organizationId: owner.organization.id };
}
