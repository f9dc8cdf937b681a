import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { Router } from "express";
import { SignJWT } from "jose";
import pino from "pino";
import request from "supertest";
import { z } from "zod";
import { defineRoute, type Role } from "@cloudcost/contracts";
import { errorHandler, registerRoutes } from "@cloudcost/http";
import { mainApiHooks } from "../src/api-router";
import { createApp } from "../src/app";
import { buildDeps } from "../src/compose";
import { DEV_AUDIENCE, DEV_ISSUER, loadDevIssuerKey } from "../src/auth/dev-issuer";
import { loadConfig } from "../src/config";
import { renderEnvelopeError } from "../src/errors";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Org A" });
  b = await signUp(ctx, { company: "Org B" });
});
afterAll(async () => {
  await ctx.close();
});

const whoAmI = (token: string) =>
  request(ctx.app).get(`/api/v1/organizations/${a.organization.id}/users/${a.owner.id}`).set("Authorization", `Bearer ${token}`);

// Keys are generated to PEM and re-imported: Node 20 can deadlock exporting a key that still shares
// its data with the generation job (see src/auth/dev-issuer.ts).
const pemPair = (type: "ed25519" | "ec") => {
  const pair = generateKeyPairSync(
    type as "ec",
    {
      ...(type === "ec" ? { namedCurve: "P-256" } : {}),
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    } as never,
  ) as unknown as { privateKey: string; publicKey: string };
  return { privateKey: createPrivateKey(pair.privateKey), publicKey: createPublicKey(pair.publicKey) };
};
const foreignKey = pemPair("ed25519").privateKey;
const devKey = () => loadDevIssuerKey(ctx.config.auth.devIssuerDir);

function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { iss: DEV_ISSUER, aud: DEV_AUDIENCE, sub: "dev|fixed", email: a.email, email_verified: true, iat: now, exp: now + 600, ...overrides };
}

describe("bearer JWT verification", () => {
  it("accepts a development-issuer token and serves the issuer's JWKS", async () => {
    await whoAmI(a.token).expect(200);
    const jwks = await request(ctx.app).get("/.well-known/jwks.json").expect(200);
    expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", kid: devKey().kid })]);
    expect(JSON.stringify(jwks.body)).not.toContain('"d"');
  });

  it("rejects an expired token (401)", async () => {
    expectError(await whoAmI(await mintToken(ctx, { email: a.email, ttlSeconds: -60 })), 401, /expired/);
  });

  it("tolerates 30 s of clock skew but not more", async () => {
    const sub = (await ctx.prisma.identity.findFirstOrThrow({ where: { userId: a.owner.id } })).subject;
    await whoAmI(await mintToken(ctx, { email: a.email, sub, ttlSeconds: -10 })).expect(200);
    expectError(await whoAmI(await mintToken(ctx, { email: a.email, sub, ttlSeconds: -45 })), 401, /expired/);
  });

  it("rejects a token from an untrusted issuer, even when signed with the dev key", async () => {
    const token = await new SignJWT(claims({ iss: "https://evil.example" })).setProtectedHeader({ alg: "EdDSA" }).sign(devKey().privateKey);
    expectError(await whoAmI(token), 401, /issuer is not trusted/);
  });

  it("rejects a token signed by a foreign key", async () => {
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: "EdDSA", kid: devKey().kid }).sign(foreignKey);
    expectError(await whoAmI(token), 401, /signature/);
  });

  it("rejects alg none and shared-secret algorithms", async () => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    expectError(await whoAmI(`${part({ alg: "none", typ: "JWT" })}.${part(claims())}.`), 401);
    const hs = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("x".repeat(32)));
    expectError(await whoAmI(hs), 401, /algorithm/);
  });

  it("rejects a wrong audience and a missing subject", async () => {
    const wrongAud = await new SignJWT(claims({ aud: "someone-else" })).setProtectedHeader({ alg: "EdDSA" }).sign(devKey().privateKey);
    expectError(await whoAmI(wrongAud), 401, /'aud'/);
    const noSub = await new SignJWT(claims({ sub: undefined })).setProtectedHeader({ alg: "EdDSA" }).sign(devKey().privateKey);
    expectError(await whoAmI(noSub), 401, /sub/);
  });

  it("rejects other Authorization schemes and malformed API keys", async () => {
    const res = await request(ctx.app).get(`/api/v1/organizations/${a.organization.id}/users/${a.owner.id}`).set("Authorization", "Basic abc");
    expectError(res, 401, /Bearer/);
    expectError(await whoAmI("bl_tooshort"), 401, /Malformed API key/);
    expectError(await whoAmI(`bl_${"A".repeat(42)}`), 401, /Malformed API key/);
  });

  it("answers 403 for a deactivated user", async () => {
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
    await whoAmI(member.token).expect(200);
    await ctx.prisma.user.update({ where: { organizationId_id: { organizationId: a.organization.id, id: member.user.id } }, data: { active: false } });
    expectError(await whoAmI(member.token), 403, /deactivated/);
  });

  it("accepts tokens of a configured OpenID Connect provider through its remote JWKS, beside the dev issuer", async () => {
    const { privateKey, publicKey } = pemPair("ec");
    const jwk = { ...publicKey.export({ format: "jwk" }), kid: "idp-1", alg: "ES256", use: "sig" };
    const server = http.createServer((_req, res) => res.setHeader("content-type", "application/json").end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    let deps: ReturnType<typeof buildDeps> | undefined;
    try {
      const { port } = server.address() as AddressInfo;
      const config = loadConfig({
        LOG_LEVEL: "silent",
        AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
        AUTH_ISSUER: "https://idp.example",
        AUTH_AUDIENCE: "cloudcost",
        MAIN_API_DEV_ISSUER: "true",
        MAIN_API_DEV_ISSUER_DIR: ctx.config.auth.devIssuerDir,
        SERVICE_TOKEN_SECRET: ctx.config.serviceTokenSecret,
      });
      deps = buildDeps({ config, db: ctx.db, logger: pino({ level: "silent" }) });
      const app = createApp(deps);
      const idp = (audience = "cloudcost") =>
        new SignJWT({ email: uniqueEmail("idp"), email_verified: true })
          .setProtectedHeader({ alg: "ES256", kid: "idp-1" })
          .setIssuer("https://idp.example")
          .setAudience(audience)
          .setSubject("idp-user-1")
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey);
      const signup = (token: string) =>
        request(app).post("/api/v1/signup/complete").set("Authorization", `Bearer ${token}`).send({ company_name: "IdP Co", first_name: "I", last_name: "P" });
      await signup(await idp()).expect(201);
      const link = await ctx.prisma.identity.findUniqueOrThrow({ where: { issuer_subject: { issuer: "https://idp.example", subject: "idp-user-1" } } });
      expect(link.organizationId).toMatch(/^org_/);
      // The dev issuer is still trusted beside it, and the provider's audience is enforced.
      await request(app).get(`/api/v1/organizations/${a.organization.id}/users/${a.owner.id}`).set("Authorization", `Bearer ${a.token}`).expect(200);
      expectError(await signup(await idp("other")), 401, /'aud'/);
    } finally {
      server.close();
      await deps?.prisma.$disconnect();
    }
  });

  it("does not trust the dev issuer when a provider is configured unless asked to", () => {
    const config = loadConfig({ AUTH_JWKS_URL: "https://idp.example/jwks", AUTH_ISSUER: "https://idp.example", AUTH_AUDIENCE: "x" });
    expect(config.auth.devIssuer).toBe(false);
    expect(loadConfig({}).auth.devIssuer).toBe(true);
    expect(() => loadConfig({ AUTH_JWKS_URL: "https://idp.example/jwks" })).toThrow(/AUTH_ISSUER/);
    expect(() => loadConfig({ AUTH_ALGORITHMS: "HS256" })).toThrow(/AUTH_ALGORITHMS/);
  });
});

describe("tenant-scoped authorization", () => {
  interface RequireTenantOptions {
    write?: boolean;
    roles?: Role[];
  }
  // A tenant-scoped route as the compute routes declare it (without the header schema, so that
  // authorize's own answers to a missing or malformed header show), bound with the app's hooks.
  function tenantApp(options: RequireTenantOptions) {
    const route = defineRoute({
      operationId: "scoped",
      method: "get",
      path: "/scoped",
      summary: "A tenant-scoped probe",
      tags: ["Test"],
      errors: "envelope",
      auth: "bearer",
      scope: "tenant",
      ...options,
      responses: { 200: { description: "The tenant", schema: z.unknown() } },
    });
    const router = Router();
    registerRoutes(
      router,
      { scoped: route },
      { scoped: (_input, { tenant }: { tenant: unknown }) => ({ status: 200, body: { message: "ok", status: "success", data: tenant } }) },
      mainApiHooks(ctx.deps),
    );
    const app = express();
    app.use(router);
    app.use(errorHandler(renderEnvelopeError, pino({ level: "silent" })));
    return app;
  }
  const call = (options: RequireTenantOptions, token: string, tenantId?: string) => {
    const req = request(tenantApp(options)).get("/scoped").set("Authorization", `Bearer ${token}`);
    return tenantId === undefined ? req : req.set("X-Service-Tenant-ID", tenantId);
  };

  it("selects a tenant of the caller's organization", async () => {
    const res = await call({}, a.token, a.tenant.id).expect(200);
    expect(res.body.data).toEqual({ id: a.tenant.id, organizationId: a.organization.id });
  });

  it("answers 400 for a missing, empty or malformed header before anything else", async () => {
    expectError(await call({}, a.token), 400, /Missing X-Service-Tenant-ID/);
    expectError(await call({}, a.token, "  "), 400, /Missing X-Service-Tenant-ID/);
    expectError(await call({}, a.token, "ten$bad"), 400, /Malformed X-Service-Tenant-ID/);
    expectError(await call({ roles: ["owner"] }, a.token, "x".repeat(65)), 400, /Malformed/);
  });

  it("answers 401 without credentials", async () => {
    expectError(await request(tenantApp({})).get("/scoped").set("X-Service-Tenant-ID", a.tenant.id), 401);
  });

  it("answers 403 for an unknown tenant, another organization's tenant and an archived tenant", async () => {
    expectError(await call({}, a.token, "ten_DOESNOTEXIST"), 403, /not available/);
    expectError(await call({}, a.token, b.tenant.id), 403, /not available/);
    const archived = await ctx.prisma.tenant.create({ data: { organizationId: a.organization.id, id: "ten_archived_1", name: "Old", archivedAt: new Date() } });
    expectError(await call({}, a.token, archived.id), 403, /not available/);
  });

  it("lets members and viewers reach only their tenants, viewers only read, and honours roles", async () => {
    const other = await ctx.prisma.tenant.create({ data: { organizationId: a.organization.id, id: "ten_other_1", name: "Other" } });
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member", tenantIds: [a.tenant.id] });
    const viewer = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "viewer", tenantIds: [a.tenant.id] });
    const admin = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "admin" });

    await call({ write: true }, member.token, a.tenant.id).expect(200);
    expectError(await call({}, member.token, other.id), 403, /not available/);
    await call({}, viewer.token, a.tenant.id).expect(200);
    expectError(await call({ write: true }, viewer.token, a.tenant.id), 403, /Viewers cannot change/);
    await call({ write: true }, admin.token, other.id).expect(200);
    expectError(await call({ roles: ["owner", "admin"] }, member.token, a.tenant.id), 403, /role owner or admin/);
    await call({ roles: ["owner", "admin"] }, admin.token, a.tenant.id).expect(200);
  });

  it("gives API keys the same answers: their tenants only, no archived, unknown or foreign tenant", async () => {
    const key = async (role: string, tenantIds: string[]) =>
      (
        await request(ctx.app)
          .post("/api/v1/settings/api-keys")
          .set("Authorization", `Bearer ${a.token}`)
          .send({ name: `k-${role}`, role, tenant_ids: tenantIds })
          .expect(201)
      ).body.data.key as string;
    const member = await key("member", [a.tenant.id]);
    const admin = await key("admin", []);
    const sibling = await ctx.prisma.tenant.create({ data: { organizationId: a.organization.id, id: "ten_sibling_1", name: "Sibling" } });
    const archived = await ctx.prisma.tenant.create({
      data: { organizationId: a.organization.id, id: "ten_archived_2", name: "Gone", archivedAt: new Date() },
    });

    const res = await call({ write: true }, member, a.tenant.id).expect(200);
    expect(res.body.data).toEqual({ id: a.tenant.id, organizationId: a.organization.id });
    expectError(await call({}, member, sibling.id), 403, /not available/);
    await call({}, admin, sibling.id).expect(200);
    for (const tenantId of [archived.id, b.tenant.id, "ten_DOESNOTEXIST"]) expectError(await call({}, admin, tenantId), 403, /not available/);
    expectError(await call({}, member, "ten$bad"), 400, /Malformed/);
  });
});
