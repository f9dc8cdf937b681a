import { ErrorCode, errorStatus, mainApiRoutes, pricingApiRoutes, type RouteDefinition } from "../src/index.js";

describe("error codes", () => {
  it("are snake_case, each with a 4xx or 5xx status", () => {
    for (const code of ErrorCode.options) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
      expect([code, errorStatus[code] >= 400 && errorStatus[code] < 600]).toEqual([code, true]);
    }
  });
});

describe.each([
  ["pricing API", pricingApiRoutes],
  ["main API", mainApiRoutes],
] as const)("%s route table", (_name, table) => {
  const routes = Object.entries(table as Record<string, RouteDefinition>);

  it("keys each operation by its operationId, once per method and path", () => {
    for (const [key, route] of routes) expect(route.operationId).toBe(key);
    const keys = routes.map(([, route]) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("declares a schema for exactly the path's parameters", () => {
    for (const [, route] of routes) {
      const inPath = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]).sort();
      expect([route.operationId, Object.keys(route.params?.shape ?? {}).sort()]).toEqual([route.operationId, inPath]);
    }
  });

  it("declares idempotency only on POST, and a body never on GET or DELETE", () => {
    for (const [, route] of routes) {
      if (route.idempotent) expect([route.operationId, route.method]).toEqual([route.operationId, "post"]);
      if (route.body) expect([route.operationId, ["get", "delete"].includes(route.method)]).toEqual([route.operationId, false]);
    }
  });
});
