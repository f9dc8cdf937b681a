import type { z } from "zod";
import { TenantHeaders } from "../api/headers.js";
import { defineRoute, type RouteDefinition } from "../api/route.js";
import { ErrorEnvelope, SuccessEnvelope } from "./envelope.js";

export { defineRoute };

type Base<C> = { errors: "envelope"; auth: "bearer"; scope: C };
type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope"> & Partial<Pick<RouteDefinition, "auth" | "scope">>;
type Declared<C, S> = Omit<Base<C>, keyof S> & S;

const bearer = <const C extends "organization" | "caller", const S extends Spec>(scope: C, spec: S): Declared<C, S> =>
  ({ errors: "envelope", auth: "bearer", scope, ...spec }) as Declared<C, S>;
/** Acts within the organization named by `{org_id}`: authorize answers 403 to a caller of any other (or none). */
export const inOrganization = <const S extends Spec>(spec: S) => bearer("organization", spec);
/** Acts on the caller itself (its identity, its own organization): no organization in the path. */
export const ofCaller = <const S extends Spec>(spec: S) => bearer("caller", spec);
type TenantDeclared<S> = Omit<Base<"tenant"> & { headers: typeof TenantHeaders }, keyof S> & S;
/** Acts on the tenant named by X-Service-Tenant-ID: authorize answers 403 to a caller that cannot reach it. */
export const inTenant = <const S extends Spec>(spec: S): TenantDeclared<S> =>
  ({ errors: "envelope", auth: "bearer", scope: "tenant", headers: TenantHeaders, ...spec }) as TenantDeclared<S>;

/** A success envelope around `data`. */
export const ok = <T extends z.ZodType>(description: string, data: T) => ({ description, schema: SuccessEnvelope(data) });
/** An error envelope. */
export const failure = (description: string) => ({ description, schema: ErrorEnvelope });
export const MANAGERS = ["owner", "admin"] as const;
/** People only: an API key gets a 403 saying so. */
export const peopleOnly = <const W extends string>(keysRefused: W) => ({ keys: false, keysRefused }) as const;
