import type { Organization, Role, Tenant, User } from "@cloudcost/contracts";
import request from "supertest";
import { loadDevIssuerKey, mintDevToken } from "../../src/auth/dev-issuer";
import type { TestContext } from "./context";

let counter = 0;
/** A fresh e-mail address per call, so tests sharing a database never collide. */
export function uniqueEmail(label = "user"): string {
  return `${label}-${Date.now().toString(36)}-${++counter}@example.com`;
}

export interface MintOptions {
  email: string;
  verified?: boolean;
  sub?: string;
  ttlSeconds?: number;
}

/** A development-issuer token the test context's app trusts. */
export function mintToken(ctx: Pick<TestContext, "config">, options: MintOptions): Promise<string> {
  return mintDevToken(loadDevIssuerKey(ctx.config.auth.devIssuerDir), {
    email: options.email,
    verified: options.verified,
    subject: options.sub,
    ttlSeconds: options.ttlSeconds,
  });
}

export interface SignedUp {
  token: string;
  email: string;
  organization: Organization;
  tenant: Tenant;
  owner: User;
}

/** Signs up a new organization through the real endpoint; returns the owner's token and what was created. */
export async function signUp(ctx: Pick<TestContext, "app" | "config">, options: { email?: string; company?: string; slug?: string } = {}): Promise<SignedUp> {
  const email = options.email ?? uniqueEmail("owner");
  const token = await mintToken(ctx, { email });
  const res = await request(ctx.app)
    .post("/api/v1/signup/complete")
    .set("Authorization", `Bearer ${token}`)
    .send({ company_name: options.company ?? "Acme Corp", first_name: "Ada", last_name: "Lovelace", slug: options.slug });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token, email, organization: res.body.data.organization, tenant: res.body.data.default_tenant, owner: res.body.data.owner };
}

/**
 * Adds a user the way a person joins: the owner (or admin) invites the e-mail through the real
 * endpoint, then the invitee accepts with its own token. Returns that token and the user.
 */
export async function addUser(
  ctx: Pick<TestContext, "app" | "config">,
  options: { orgId: string; ownerToken: string; email?: string; role: Role; tenantIds?: string[] },
): Promise<{ token: string; user: User }> {
  const email = options.email ?? uniqueEmail(options.role);
  const invited = await request(ctx.app)
    .post(`/api/v1/organizations/${options.orgId}/invitations`)
    .set("Authorization", `Bearer ${options.ownerToken}`)
    .send({ email, role: options.role, tenant_ids: options.tenantIds ?? [] });
  if (invited.status !== 201) throw new Error(`invite failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const token = await mintToken(ctx, { email });
  const accepted = await request(ctx.app).post(`/api/v1/invitations/${invited.body.data.id}/accept`).set("Authorization", `Bearer ${token}`);
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { token, user: accepted.body.data };
}

/** Asserts the main API's error envelope and returns its message. */
export function expectError(res: request.Response, status: number, message?: RegExp): string {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { message: expect.any(String), status: "error" } });
  if (message) expect(res.body.message).toMatch(message);
  return res.body.message;
}
