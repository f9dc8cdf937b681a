// The route table is the only way an operation reaches Express: every route the app registers is
// a declared operation (or tooling: metrics and the API reference), the service-token `/internal` ones included, and every
// declared operation is registered, with the method and path it declares.
import { pricingApiRoutes, pricingInternalRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { operationKey, routeTableCoverage } from "@cloudcost/testing";
import { createApp, pricingApiBindings } from "../src/app";
import { createTestContext, type TestContext } from "./helpers/context";
import { TOOLING_ROUTES } from "./helpers/undeclared";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const declared: RouteDefinition[] = Object.values(pricingApiRoutes);

test("every Express route comes from the route table (tooling aside), and every declared operation is registered", () => {
  const coverage = routeTableCoverage(ctx.app, pricingApiRoutes);
  expect(coverage.registered).toEqual(coverage.declared);
  expect(coverage.undeclared).toEqual([...TOOLING_ROUTES].sort());
});

test("each pricing operation declares the weakest key role that may call it (docs/api.md, Pricing API)", () => {
  const roles = Object.fromEntries(declared.filter((route) => route.auth === "api_key").map((route) => [operationKey(route), route.minKeyRole]));
  expect(roles).toEqual({
    "GET /v1/pricing/account": "viewer",
    "POST /v1/pricing/compute": "viewer",
    "POST /v1/pricing/compute/batch": "viewer",
    "GET /v1/pricing/compute/instance-types": "viewer",
    "POST /v1/pricing/usage": "viewer",
    "GET /marketplace/providers/models": "viewer",
    "GET /marketplace/providers/databases": "viewer",
    "GET /marketplace/providers/compute": "viewer",
    "GET /marketplace/providers/commitment-rates": "viewer",
    "GET /v1/pricing/pins": "viewer",
    "GET /v1/pricing/reports/{id}": "viewer",
    "POST /marketplace/providers/models": "member",
    "POST /marketplace/providers/databases": "member",
    "POST /marketplace/providers/compute": "member",
    "POST /marketplace/providers/commitment-rates": "member",
    "POST /v1/pricing/reports": "member",
    "PUT /v1/pricing/pins/{kind}/{resource_id}": "member",
    "DELETE /v1/pricing/pins/{kind}/{resource_id}": "member",
    "DELETE /marketplace/providers/models": "admin",
    "DELETE /marketplace/providers/databases": "admin",
    "DELETE /marketplace/providers/compute": "admin",
    "DELETE /marketplace/providers/commitment-rates": "admin",
    "DELETE /v1/pricing/reports/{id}": "admin",
  });
});

test("the service-token operations are exactly the /internal ones, none in the public document", () => {
  const service = declared.filter((route) => route.auth === "service");
  expect(service.map(operationKey).sort()).toEqual(
    [
      "POST /internal/accounts/{accountId}/api-keys",
      "PUT /internal/api-keys/{keyHash}",
      "DELETE /internal/api-keys/{keyHash}",
      "POST /internal/accounts/{accountId}/pricing/compute/batch",
      "GET /internal/accounts/{accountId}/pricing/compute/instance-types",
      "POST /internal/accounts/{accountId}/pricing/usage",
      "GET /internal/accounts/{accountId}/commitment-rates",
    ].sort(),
  );
  expect(service.every((route) => route.internal === true && route.path.startsWith("/internal/"))).toBe(true);
  expect(declared.filter((route) => route.path.startsWith("/internal/")).every((route) => route.auth === "service")).toBe(true);
});

test("the app is built from one [slice, handlers] pair per domain and refuses to start unless each operation is bound exactly once", () => {
  const bindings = pricingApiBindings(ctx.deps);
  const internal = bindings.find(([slice]) => slice === pricingInternalRoutes);
  if (!internal) throw new Error("no internal pair");
  expect(() =>
    createApp(
      ctx.deps,
      bindings.filter((pair) => pair !== internal),
    ),
  ).toThrow(/listCommitmentRatesForAccount: no slice binds it/);
  expect(() => createApp(ctx.deps, [...bindings, internal])).toThrow(/createAccountKey: bound by slices \d+ and \d+/);
});
