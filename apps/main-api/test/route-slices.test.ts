// The main API registers its route table from `[slice, handlers]` pairs (api-router.ts): each
// domain's slice of the contracts with the handlers of its app folder. A new operation is one more
// slice (a contracts folder) and its handlers (an app folder), registered through the same pairs;
// the app refuses to start unless every operation of the table is bound exactly once.
import { defineRoute, mainApiRoutes, mainApiWebhookRoutes, OrganizationPathParams, type RouteTable, SuccessEnvelope } from "@cloudcost/contracts";
import { bindSlice, serviceApp } from "@cloudcost/http";
import { Router, type Express } from "express";
import request from "supertest";
import { z } from "zod";
import { apiRouter, mainApiBindings } from "../src/api-router";
import { renderEnvelopeError } from "../src/errors";
import type { HandlersOf } from "../src/operations";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, signUp, type SignedUp } from "./helpers/identity";

// What a domain's contracts folder holds (`packages/contracts/src/main/<domain>/routes.ts`): its slice.
const greetingRoutes = {
  getGreeting: defineRoute({
    operationId: "getGreeting",
    method: "get",
    path: "/api/v1/organizations/{org_id}/greeting",
    summary: "Test only: a greeting for the organization",
    tags: ["Test"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    params: OrganizationPathParams,
    responses: { 200: { description: "The greeting", schema: SuccessEnvelope(z.object({ text: z.string() })) } },
  }),
} as const;

// What the domain's app folder holds (`apps/main-api/src/<domain>/handlers.ts`): the handlers of its slice, typed by it.
const greetingHandlers = (): HandlersOf<typeof greetingRoutes> => ({
  getGreeting: (_input, { organization }) => ({ status: 200, body: { message: "Hello.", status: "success", data: { text: `Hello, ${organization.id}` } } }),
});

let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;

beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Greeting Org A" });
  b = await signUp(ctx, { company: "Greeting Org B" });
});
afterAll(async () => {
  await ctx?.close();
});

/** The main API's app with `bindings` over `table` (what createApp builds from the real ones). */
function appWith(bindings = mainApiBindings(ctx.deps), table: RouteTable = mainApiRoutes): Express {
  const options = { logger: ctx.deps.logger, metrics: ctx.deps.metrics, protection: ctx.config.protection, renderError: renderEnvelopeError };
  return serviceApp(options, (app) => {
    app.use(apiRouter(ctx.deps, Router(), bindings, table));
  });
}

it("adds an operation with one slice and its handlers, registered as one more pair: the binder checks its declared scope", async () => {
  const app = appWith([...mainApiBindings(ctx.deps), bindSlice(greetingRoutes, greetingHandlers())], { ...mainApiRoutes, ...greetingRoutes });
  const greeting = await request(app).get(`/api/v1/organizations/${a.organization.id}/greeting`).set("Authorization", `Bearer ${a.token}`).expect(200);
  expect(greeting.body.data).toEqual({ text: `Hello, ${a.organization.id}` });
  expectError(await request(app).get(`/api/v1/organizations/${b.organization.id}/greeting`).set("Authorization", `Bearer ${a.token}`), 403, /not a member/);
  // The operations of the real table answer as before beside it.
  const org = await request(app).get(`/api/v1/organizations/${a.organization.id}`).set("Authorization", `Bearer ${a.token}`).expect(200);
  expect(org.body.data.id).toBe(a.organization.id);
});

it("refuses to start when an operation of the table is bound by no pair", () => {
  const withoutWebhooks = mainApiBindings(ctx.deps).filter(([slice]) => slice !== mainApiWebhookRoutes);
  expect(() => appWith(withoutWebhooks)).toThrow(/createWebhook: no slice binds it/);
  // A new slice registered without its operations in the table is refused too.
  expect(() => appWith([...mainApiBindings(ctx.deps), bindSlice(greetingRoutes, greetingHandlers())])).toThrow(
    /getGreeting: slice \d+ declares an operation the route table does not hold/,
  );
});

it("refuses to start when an operation is bound twice, or a pair's handlers do not match its slice", () => {
  const bindings = mainApiBindings(ctx.deps);
  const webhooks = bindings.find(([slice]) => slice === mainApiWebhookRoutes);
  if (!webhooks) throw new Error("no webhook pair");
  expect(() => appWith([...bindings, webhooks])).toThrow(/createWebhook: bound by slices \d+ and \d+/);
  const [slice, handlers] = webhooks;
  const { deleteWebhook: _dropped, ...fewer } = handlers;
  const others = bindings.filter((pair) => pair !== webhooks);
  expect(() => appWith([...others, [slice, fewer]])).toThrow(/deleteWebhook: slice \d+ has no handler for it/);
  expect(() => appWith([...others, [slice, { ...handlers, getGreeting: () => undefined }]])).toThrow(
    /getGreeting: a handler of slice \d+, which declares no such operation/,
  );
});
