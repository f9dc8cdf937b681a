import type { z } from "zod";
import { ErrorCode, errorStatus, mainApiRoutes, pricingApiRoutes, type RouteDefinition } from "../src/index.js";

/** The fields of an operation's query object (under any transform it is piped through). */
function queryFields(schema: z.ZodType | undefined): [string, z.ZodType][] {
  let current = schema as { shape?: Record<string, z.ZodType>; _zod: { def: { type: string; in?: unknown } } } | undefined;
  while (current && !current.shape && current._zod.def.type === "pipe") current = current._zod.def.in as typeof current;
  return current?.shape ? Object.entries(current.shape) : [];
}

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

  it("reads every numeric query parameter from plain decimal digits only (no exponent, hex, sign, spaces)", () => {
    const numeric = routes.flatMap(([, route]) =>
      queryFields(route.query)
        .filter(([, field]) => ["7", "12", "30"].some((digits) => typeof field.safeParse(digits).data === "number"))
        .map(([name, field]) => [`${route.operationId}?${name}`, field] as const),
    );
    expect(numeric.length).toBeGreaterThan(0);
    for (const [where, field] of numeric) {
      const accepted = ["1e1", "1.2e1", "0x10", "0xc", "+5", "-1", " 5", "5 ", "0b1", "0o7", "Infinity", "1_0", "\uff15"].filter(
        (text) => field.safeParse(text).success,
      );
      expect([where, accepted]).toEqual([where, []]);
    }
  });

  it("declares idempotency only on POST, and a body never on GET or DELETE", () => {
    for (const [, route] of routes) {
      if (route.idempotent) expect([route.operationId, route.method]).toEqual([route.operationId, "post"]);
      if (route.body) expect([route.operationId, ["get", "delete"].includes(route.method)]).toEqual([route.operationId, false]);
    }
  });
});
