// The route table is the only way an operation reaches Express: every route the app registers is a
// declared operation or tooling, and every declared operation is registered with the method and
// path it declares.
import { mainApiRoutes } from "@cloudcost/contracts";
import { routeTableCoverage } from "@cloudcost/testing";
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
  const coverage = routeTableCoverage(ctx.app, mainApiRoutes);
  expect(coverage.registered).toEqual(coverage.declared);
  expect(coverage.undeclared).toEqual([...TOOLING_ROUTES].sort());
});

test("the check can fail: a route registered outside the table is reported without an operation", () => {
  const app = createApp(ctx.deps);
  app.get("/api/v1/undeclared", (_req, res) => {
    res.end();
  });
  expect(routeTableCoverage(app, mainApiRoutes).undeclared).toContain("GET /api/v1/undeclared");
});
