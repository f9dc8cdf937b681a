import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { expressPath, largeJsonBody, type ServiceAppOptions } from "@cloudcost/http";

const MIB = 1024 * 1024;

/** JSON bodies of the operations declared with a `bodyLimit` in MiB ("8 MiB"); mounted before the app-wide 1 MiB parser, which then skips them. */
export function largeJsonBodies(): NonNullable<ServiceAppOptions["bodyParsers"]> {
  const byLimit = new Map<string, string[]>();
  for (const route of Object.values(mainApiRoutes) as RouteDefinition[]) {
    if (!route.bodyLimit || !/^\d+ MiB$/.test(route.bodyLimit)) continue;
    byLimit.set(route.bodyLimit, [...(byLimit.get(route.bodyLimit) ?? []), expressPath(route.path)]);
  }
  return [...byLimit.entries()].map(([limit, paths]) => ({ paths, parser: largeJsonBody(Number.parseInt(limit, 10) * MIB, limit) }));
}
