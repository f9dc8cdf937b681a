import type { Router } from "express";
import type { RouteDefinition, RouteTable } from "@cloudcost/contracts";
import { registerRoutes, type RouteHandler, type RouteHandlers, type RouteHooks } from "./bind";

/** One domain's slice of the route table and the handlers of exactly its operations. */
export type SliceBinding = readonly [slice: RouteTable, handlers: Readonly<Record<string, unknown>>];

/** A `[slice, handlers]` pair whose handlers the compiler checks against the slice (one per operation, typed by it). */
export function bindSlice<T extends RouteTable>(slice: T, handlers: NoInfer<RouteHandlers<T>>): SliceBinding {
  return [slice, handlers];
}

/**
 * Why `bindings` do not bind every operation of `table` exactly once, one line per fault (empty
 * when they do): an operation no slice binds, one bound by two slices, a handler for an operation
 * its slice does not declare, a slice operation without a handler, or a slice operation that is not
 * the table's declaration.
 */
export function sliceFaults(table: RouteTable, bindings: readonly SliceBinding[]): string[] {
  const faults: string[] = [];
  const boundBy = new Map<string, number[]>();
  bindings.forEach(([slice, handlers], index) => {
    for (const [name, route] of Object.entries(slice)) {
      if (table[name] !== route) faults.push(`${name}: slice ${index} declares an operation the route table does not hold`);
      if (typeof handlers[name] !== "function") faults.push(`${name}: slice ${index} has no handler for it`);
      boundBy.set(name, [...(boundBy.get(name) ?? []), index]);
    }
    for (const name of Object.keys(handlers))
      if (!Object.hasOwn(slice, name)) faults.push(`${name}: a handler of slice ${index}, which declares no such operation`);
  });
  for (const name of Object.keys(table)) {
    const slices = boundBy.get(name) ?? [];
    if (slices.length === 0) faults.push(`${name}: no slice binds it`);
    else if (slices.length > 1) faults.push(`${name}: bound by slices ${slices.join(" and ")}`);
  }
  return faults;
}

/**
 * Registers the whole `table` from `[slice, handlers]` pairs, in the table's order (so that the
 * first of two overlapping paths is matched first, as declared). Refuses (throws, so the service
 * does not start) unless every operation of the table is bound exactly once.
 */
export function registerSlices(router: Router, table: RouteTable, bindings: readonly SliceBinding[], hooks: RouteHooks): void {
  const faults = sliceFaults(table, bindings);
  if (faults.length > 0) throw new Error(`The route table is not bound exactly once:\n${faults.join("\n")}`);
  const handlers: RouteHandlers<RouteTable> = {};
  for (const [slice, bound] of bindings) for (const name of Object.keys(slice)) handlers[name] = bound[name] as RouteHandler<RouteDefinition, never>;
  registerRoutes(router, table, handlers, hooks);
}
