// The route table is the only way an operation reaches Express: every route the app registers is a
// declared operation or tooling, and every declared operation is registered with the method and
// path it declares.
import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { listRoutes } from "@cloudcost/http";
import { operationKey, routeKey } from "@cloudcost/testing";
import { createApp } from "../src/app";
import { createTestContext, type TestContext } from "./helpers/context";
import { TOOLING_ROUTES } from "./helpers/undeclared";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

test("every Express route comes from the route table (tooling aside), and every declared operation is registered", () => {
  const declared: RouteDefinition[] = Object.values(mainApiRoutes);
  const routes = listRoutes(ctx.app);
  const bound = routes.filter((route) => route.operationId);
  expect(bound.map((route) => route.operationId).sort()).toEqual(declared.map((route) => route.operationId).sort());
  for (const route of bound) {
    const declaration = declared.find((d) => d.operationId === route.operationId);
    expect([route.operationId, routeKey(route)]).toEqual([route.operationId, declaration && operationKey(declaration)]);
  }
  expect(
    routes
      .filter((route) => !route.operationId)
      .map(routeKey)
      .sort(),
  ).toEqual([...TOOLING_ROUTES].sort());
});

test("the check can fail: a route registered outside the table is reported without an operation", () => {
  const app = createApp(ctx.deps);
  app.get("/api/v1/undeclared", (_req, res) => {
    res.end();
  });
  const undeclared = listRoutes(app)
    .filter((route) => !route.operationId)
    .map(routeKey);
  expect(undeclared).toContain("GET /api/v1/undeclared");
});
