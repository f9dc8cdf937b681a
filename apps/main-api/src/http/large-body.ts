import express, { type RequestHandler } from "express";
import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { expressPath, HttpError, verifyJsonBody } from "@cloudcost/http";

const MIB = 1024 * 1024;

/** JSON bodies of the operations declared with a `bodyLimit` in MiB ("8 MiB"); mounted before the app-wide 1 MiB parser, which then skips them. */
export function largeJsonBodies(): { paths: string[]; parser: RequestHandler }[] {
  const byLimit = new Map<string, string[]>();
  for (const route of Object.values(mainApiRoutes) as RouteDefinition[]) {
    if (!route.bodyLimit || !/^\d+ MiB$/.test(route.bodyLimit)) continue;
    byLimit.set(route.bodyLimit, [...(byLimit.get(route.bodyLimit) ?? []), expressPath(route.path)]);
  }
  return [...byLimit.entries()].map(([limit, paths]) => {
    const parse = express.json({ limit: Number.parseInt(limit, 10) * MIB, type: ["application/json", "application/*+json"], verify: verifyJsonBody });
    const parser: RequestHandler = (req, res, next) =>
      parse(req, res, (err?: unknown) => {
        if ((err as { type?: string } | undefined)?.type === "entity.too.large")
          return next(new HttpError("payload_too_large", `The request body is larger than ${limit}.`));
        next(err);
      });
    return { paths, parser };
  });
}
