import type { RouteDefinition, RouteTable } from "@cloudcost/contracts";
import type { Express } from "express";
import { listRoutes } from "@cloudcost/http";
import { routeKey, type RouteSpec } from "./fuzz";

/** Valid values of one declared operation, for the tests that derive their targets from the route table. */
export interface OperationExample {
  params?: Record<string, string>;
  /** Customer-chosen (or created on first use) params: another well-formed value is a valid request. */
  freeParams?: string[];
  query?: Record<string, string>;
  body?: unknown;
  /** The tenant a tenant-scoped operation acts on. */
  tenant?: string;
  /** Changes nothing even when valid (a POST that only computes). */
  readOnly?: boolean;
}

/** `POST /v1/pricing/compute`: the key listRoutes and the fuzz tables use. */
export const operationKey = (route: Pick<RouteDefinition, "method" | "path">) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * The fuzz target of every operation of `table`, its schemas and auth mode read from the
 * declaration and its valid values from `examples` (keyed by operationId). Throws when an
 * operation has no example, so that a new operation cannot go unfuzzed.
 */
export function fuzzSpecsFromRoutes(table: RouteTable, examples: Record<string, OperationExample>): Record<string, RouteSpec> {
  const missing = Object.values(table)
    .map((route) => route.operationId)
    .filter((id) => !examples[id]);
  if (missing.length) throw new Error(`operations without a fuzz example: ${missing.join(", ")}`);
  const unknown = Object.keys(examples).filter((id) => !Object.values(table).some((route) => route.operationId === id));
  if (unknown.length) throw new Error(`fuzz examples of no operation: ${unknown.join(", ")}`);
  const specs: Record<string, RouteSpec> = {};
  for (const route of Object.values(table)) {
    const example = examples[route.operationId];
    const spec: RouteSpec = { auth: route.auth === "none" ? "none" : "credential", readOnly: example.readOnly };
    if (route.params) spec.params = { schema: route.params, valid: example.params ?? {}, free: example.freeParams };
    if (route.query) spec.query = { schema: route.query, valid: example.query };
    if (route.body) spec.body = { schema: route.body, valid: example.body };
    if (route.scope === "tenant") {
      if (!example.tenant) throw new Error(`${route.operationId}: a tenant-scoped operation needs a tenant in its example`);
      spec.tenant = { valid: example.tenant };
    }
    specs[operationKey(route)] = spec;
  }
  return specs;
}

/**
 * How an app's Express routes compare with its route table: `declared` and `registered` list
 * "operationId METHOD /path" and must be equal; `undeclared` lists the routes no declaration made
 * (tooling only).
 */
export function routeTableCoverage(app: Express, table: RouteTable) {
  const routes = listRoutes(app);
  return {
    declared: Object.values(table)
      .map((route) => `${route.operationId} ${operationKey(route)}`)
      .sort(),
    registered: routes
      .filter((route) => route.operationId)
      .map((route) => `${route.operationId} ${routeKey(route)}`)
      .sort(),
    undeclared: routes
      .filter((route) => !route.operationId)
      .map(routeKey)
      .sort(),
  };
}
