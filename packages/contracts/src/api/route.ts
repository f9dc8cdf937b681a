import type { z } from "zod";
import type { Role } from "../main/users/schemas.js";
import { PricingKeyRole } from "../pricing/internal/schemas.js";

/** How a caller proves who it is. */
export type AuthMode =
  /** The pricing API's `bl_` key (X-API-Key or Authorization: Bearer). */
  | "api_key"
  /** The main API's `Authorization: Bearer` with an identity-provider token or a `bl_` key. */
  | "bearer"
  /** An identity-provider token whose identity need not belong to an organization yet (sign-up). */
  | "identity"
  /** A service token signed with the secret both services share. */
  | "service"
  | "none";

/** Whose data the operation reaches; the isolation matrix calls every scoped operation across scopes. */
export type Scope =
  | "tenant"
  /**
   * The organization named by the path's `{org_id}`: the caller must belong to it (403 otherwise,
   * for an unknown organization alike), checked by the app's authorize with the roles.
   */
  | "organization"
  | "account"
  /** The caller itself: its identity, or its own organization named by no parameter (sign-up, me, API keys). */
  | "caller"
  | "none";

/** The pricing API key roles, weakest first. */
export const KEY_ROLES = PricingKeyRole.options;
export type KeyRole = PricingKeyRole;

/** Which error body the operation answers with. */
export type ErrorFormat = "problem" | "marketplace" | "envelope";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface ResponseSpec {
  description: string;
  /** The body; null for none. */
  schema: z.ZodType | null;
  /** Default `application/json`. */
  contentType?: string;
}

export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI style: `/v1/pricing/pins/{kind}/{resource_id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Request headers the operation reads, parsed with the other input (names as documented). */
  headers?: z.ZodObject;
  /** The operation's own answers; the generic ones (400, 401, 403, 413, 429, 503...) are added from the other fields. */
  responses: Record<number, ResponseSpec>;
  errors: ErrorFormat;
  auth: AuthMode;
  scope: Scope;
  /** Main API: the roles that may call it (default every role; `write` excludes viewers). */
  roles?: readonly Role[];
  /** Main API: changes data, so viewers get a 403. */
  write?: boolean;
  /**
   * Main API: the kinds of caller admitted. `keys: false` refuses API keys (a 403 whose message is
   * `keysRefused`): the operation is for people only. Default: people and keys alike.
   */
  keys?: false;
  /** With `keys: false`: what the 403 tells an API key (what it cannot do, and what to use instead). */
  keysRefused?: string;
  /** Pricing API: the weakest key role that may call it. */
  minKeyRole?: KeyRole;
  /**
   * Accepts `Idempotency-Key`; "secret" when the answer holds a secret that is shown once (the app
   * decides how such an answer is kept).
   */
  idempotent?: boolean | "secret";
  /** Service-to-service only (the pricing API's `/internal`): registered like any other, left out of the public document. */
  internal?: boolean;
  /** The largest body accepted, when not the 1 MiB default (documented with the 413). */
  bodyLimit?: string;
  /**
   * The body is not JSON but a file the handler streams itself (no `body` schema): the media types
   * it accepts, documented as binary request bodies.
   */
  rawBody?: {
    contentTypes: readonly string[];
    /** The Content-Encoding values accepted besides none (`identity`). */
    contentEncodings?: readonly string[];
    description: string;
    /**
     * The `application/json` body (one of `contentTypes`) is not streamed but parsed, with this
     * schema (the app-wide 1 MiB JSON limit): the handler gets it as `body`, undefined for a file.
     */
    json?: z.ZodType;
  };
}

/** Declares one operation; the literal type is kept so that handlers get typed input. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What a handler receives: every part already parsed with the declared schemas. */
export interface RouteInput<R extends RouteDefinition> {
  params: Out<R["params"]>;
  query: Out<R["query"]>;
  body: R extends { rawBody: { json: infer J } } ? (J extends z.ZodType ? z.output<J> | undefined : never) : Out<R["body"]>;
  headers: Out<R["headers"]>;
}

/** One of the declared answers with a body, typed by its schema's input (what the handler may pass). */
export type RouteReply<R extends RouteDefinition> = {
  [S in keyof R["responses"] & number]: R["responses"][S]["schema"] extends z.ZodType
    ? { status: S; body: z.input<R["responses"][S]["schema"]> }
    : { status: S; body?: undefined };
}[keyof R["responses"] & number];

export type RouteTable = Record<string, RouteDefinition>;
