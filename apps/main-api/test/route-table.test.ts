// The compute and health operations reach Express only through the route table: every route the
// app registers is a declared operation, or one of the identity operations not converted yet, or
// tooling; every declared operation is registered with the method and path it declares.
import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { listRoutes } from "@cloudcost/http";
import { operationKey, routeKey } from "@cloudcost/testing";
import { createTestContext, type TestContext } from "./helpers/context";
import { IDENTITY_ROUTES, TOOLING_ROUTES } from "./helpers/undeclared";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

test("every Express route comes from the route table (identity operations and tooling aside), and every declared operation is registered", () => {
  const declared: RouteDefinition[] = Object.values(mainApiRoutes);
  const routes = listRoutes(ctx.app);
  const bound = routes.filter((route) => route.operationId);
  expect(bound.map((route) => route.operationId).sort()).toEqual(declared.map((route) => route.operationId).sort());
  for (const route of bound) {
    const declaration = declared.find((d) => d.operationId === route.operationId);
    expect([route.operationId, routeKey(route)]).toEqual([route.operationId, declaration && operationKey(declaration)]);
  }
  expect(routes.filter((route) => !route.operationId).map(routeKey).sort()).toEqual([...IDENTITY_ROUTES, ...TOOLING_ROUTES].sort());
});
