// An operation declared in the route table with `scope: "organization"` gets the membership check
// from authorize, with no code in its handler: a route registered only here, whose handler just
// answers the organization it was given, is refused to every caller outside `{org_id}` (and never
// runs for them). `keys: false` likewise refuses API keys from the table alone.
import { defineRoute, OrganizationPathParams } from "@cloudcost/contracts";
import { registerRoutes, serviceApp } from "@cloudcost/http";
import { Router, type Express } from "express";
import request from "supertest";
import { z } from "zod";
import { mainApiHooks } from "../src/api-router";
import { checkDeclaredScope } from "../src/auth/authorize";
import type { ContextOf } from "../src/context";
import { renderEnvelopeError } from "../src/errors";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

const Answer = z.object({ organization: z.string() });
const probeRoutes = {
  probeOrganization: defineRoute({
    operationId: "probeOrganization",
    method: "get",
    path: "/api/v1/organizations/{org_id}/probe",
    summary: "Test only: answers the organization authorize verified",
    tags: ["Test"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    params: OrganizationPathParams,
    responses: { 200: { description: "The organization", schema: Answer } },
  }),
  probeManagers: defineRoute({
    operationId: "probeManagers",
    method: "post",
    path: "/api/v1/organizations/{org_id}/probe",
    summary: "Test only: owners and admins signed in as people",
    tags: ["Test"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    roles: ["owner", "admin"],
    keys: false,
    keysRefused: "API keys cannot probe.",
    params: OrganizationPathParams,
    responses: { 200: { description: "The organization", schema: Answer } },
  }),
} as const;
type Probe = typeof probeRoutes;

let ctx: TestContext;
let app: Express;
let a: SignedUp;
let b: SignedUp;
let calls = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Probe Org A" });
  b = await signUp(ctx, { company: "Probe Org B" });
  // The handlers know nothing of membership: they answer the organization in their context.
  const answer = (_input: unknown, { organization }: ContextOf<Probe["probeOrganization"]>) => {
    calls++;
    return { status: 200 as const, body: { organization: organization.id } };
  };
  const options = { logger: ctx.deps.logger, metrics: ctx.deps.metrics, protection: ctx.config.protection, renderError: renderEnvelopeError };
  app = serviceApp(options, (express) => {
    const router = Router();
    registerRoutes(router, probeRoutes, { probeOrganization: answer, probeManagers: answer }, mainApiHooks(ctx.deps));
    express.use(router);
  });
});
afterAll(async () => {
  await ctx?.close();
});

const probe = (method: "get" | "post", orgId: string, token?: string) => {
  const req = request(app)[method](`/api/v1/organizations/${orgId}/probe`);
  return token ? req.set("Authorization", `Bearer ${token}`) : req;
};

it("runs the handler of a new organization-scoped route for members of {org_id}, with that organization in its context", async () => {
  const viewer = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "viewer" });
  expect((await probe("get", a.organization.id, a.token).expect(200)).body).toEqual({ organization: a.organization.id });
  expect((await probe("get", a.organization.id, viewer.token).expect(200)).body).toEqual({ organization: a.organization.id });
  expect((await probe("get", b.organization.id, b.token).expect(200)).body).toEqual({ organization: b.organization.id });
});

it("refuses everyone else before the handler: another organization, an unknown one, no organization (403); 400 and 401 first", async () => {
  const before = calls;
  expectError(await probe("get", b.organization.id, a.token), 403, new RegExp(`not a member of organization ${b.organization.id}`));
  expectError(await probe("get", "org_DOESNOTEXIST", a.token), 403, /not a member of organization org_DOESNOTEXIST/);
  const stranger = await mintToken(ctx, { email: uniqueEmail("probe-stranger") });
  expectError(await probe("get", a.organization.id, stranger), 403, /does not belong to any organization/);
  // Validation first, then authentication, then membership.
  expectError(await probe("get", "org$", a.token), 400, /org_id/);
  expectError(await probe("get", "org$", b.token), 400, /org_id/);
  expectError(await probe("get", b.organization.id), 401, /Authorization/);
  expectError(await probe("get", b.organization.id, "garbage"), 401);
  expect(calls).toBe(before);
});

it("checks the table's roles, then its caller kinds (keys: false), then the organization", async () => {
  const key = (
    await request(ctx.app).post("/api/v1/settings/api-keys").set("Authorization", `Bearer ${a.token}`).send({ name: "probe key", role: "admin" }).expect(201)
  ).body.data.key as string;
  const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
  const before = calls;
  expectError(await probe("post", a.organization.id, member.token), 403, /Only owners and admins can do this \(role owner or admin\); the caller is member/);
  expectError(await probe("post", a.organization.id, key), 403, /^API keys cannot probe\.$/);
  expectError(await probe("post", b.organization.id, key), 403, /^API keys cannot probe\.$/);
  expectError(await probe("post", b.organization.id, a.token), 403, /not a member of organization/);
  expect(calls).toBe(before);
  // The key of organization A is a member of it on a route that admits keys.
  expect((await probe("get", a.organization.id, key).expect(200)).body).toEqual({ organization: a.organization.id });
  expect((await probe("post", a.organization.id, a.token).expect(200)).body).toEqual({ organization: a.organization.id });
});

it("refuses to start with an organization-scoped operation that names no organization in its path", () => {
  expect(() => checkDeclaredScope(probeRoutes.probeOrganization)).not.toThrow();
  const unnamed = defineRoute({ ...probeRoutes.probeOrganization, operationId: "probeNoOrganization", path: "/api/v1/probe", params: undefined });
  expect(() => checkDeclaredScope(unnamed)).toThrow(/probeNoOrganization: scope "organization" needs an \{org_id\} path parameter/);
});
