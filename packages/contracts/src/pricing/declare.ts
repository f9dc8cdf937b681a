import { z } from "zod";
import { ServiceId } from "../common.js";
import { defineRoute, type RouteDefinition } from "../api/route.js";
import { MarketplaceError, ProblemDocument } from "./errors.js";

export { defineRoute };

type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope"> & Partial<Pick<RouteDefinition, "scope">>;
type Keyed<E extends string, S> = Omit<{ errors: E; auth: "api_key"; scope: "account" }, keyof S> & S;

/** `/v1` operations answer RFC 9457 problem documents; every one needs a key. */
export function v1<const S extends Spec>(spec: S): Keyed<"problem", S> {
  return { errors: "problem", auth: "api_key", scope: "account", ...spec };
}
/** `/marketplace` operations answer `{error}`. */
export function market<const S extends Spec>(spec: S): Keyed<"marketplace", S> {
  return { errors: "marketplace", auth: "api_key", scope: "account", ...spec };
}
export const problem = (description: string) => ({ description, schema: ProblemDocument, contentType: "application/problem+json" });
export const error = (description: string) => ({ description, schema: MarketplaceError });

/** `?id=` of the price-book deletions. */
export const IdQuery = z.object({ id: ServiceId });
export const USAGE_BODY_LIMIT = "8 MiB";
