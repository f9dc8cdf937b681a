import type { RouteDefinition, RouteTable } from "@cloudcost/contracts";
import type { z } from "zod";

/** A value the client writes into a query string (arrays per the client's `arrayFormat`). */
export type QueryScalar = string | number | boolean | Date;
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;

/** How arrays are sent: `a=x&a=y` (default) or `a=x,y`; both APIs accept either. */
export type ArrayFormat = "repeat" | "comma";

/** The `{name}` placeholders of a path template. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Path parameters: the params schema's input, and every placeholder of the path (so a path change shows). */
type ParamsOf<R extends RouteDefinition> = [PathParamNames<R["path"]>] extends [never]
  ? R["params"] extends z.ZodType
    ? z.input<R["params"]>
    : never
  : Simplify<(R["params"] extends z.ZodType ? z.input<R["params"]> : unknown) & { [K in PathParamNames<R["path"]>]: string | number }>;

/** A query schema's input, each field also taking what the client writes as text (numbers, booleans, arrays). */
type QueryOf<Q extends z.ZodType> = Simplify<{
  [K in keyof z.input<Q>]?: unknown extends z.input<Q>[K] ? QueryValue : z.input<Q>[K] | (z.input<Q>[K] extends string ? never : QueryValue);
}>;

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type HasRequired<T> = [RequiredKeys<T>] extends [never] ? false : true;

/** The file a raw-body operation (the FOCUS import) streams: anything fetch sends as a body. */
export type RawBody = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | string;

/** Options every operation takes. */
export interface CommonOptions {
  signal?: AbortSignal;
  /** Extra request headers (sent as given, after the client's own). */
  headers?: Record<string, string>;
  /** This request's credential instead of the client's: a bearer token (main API) or an API key (pricing API). */
  credential?: string;
}

type ParamsPart<R extends RouteDefinition> = [ParamsOf<R>] extends [never] ? { params?: undefined } : { params: ParamsOf<R> };
type QueryPart<R extends RouteDefinition> = R["query"] extends z.ZodType
  ? HasRequired<QueryOf<R["query"]>> extends true
    ? { query: QueryOf<R["query"]> }
    : { query?: QueryOf<R["query"]> }
  : { query?: undefined };
type BodyPart<R extends RouteDefinition> = R["rawBody"] extends { contentTypes: readonly (infer T extends string)[] }
  ? { body: RawBody; contentType: T; contentEncoding?: "gzip" }
  : R["body"] extends z.ZodType
    ? undefined extends z.input<R["body"]>
      ? { body?: z.input<R["body"]> }
      : { body: z.input<R["body"]> }
    : { body?: undefined };
/** Tenant-scoped main API operations name the tenant (sent as `X-Service-Tenant-ID`). */
type TenantPart<R extends RouteDefinition> = R["scope"] extends "tenant" ? { tenant: string } : { tenant?: undefined };
/** Idempotent operations take an `Idempotency-Key` (a repeat with the same key replays the first answer). */
type IdempotencyPart<R extends RouteDefinition> = R["idempotent"] extends true | "secret" ? { idempotencyKey?: string } : { idempotencyKey?: undefined };

/** A file answer (the CSV exports) is read as text by default, or handed over as a blob or a stream. */
export type FileAs = "text" | "blob" | "stream";
type FilePart<R extends RouteDefinition> = IsFile<R> extends true ? { as?: FileAs } : { as?: undefined };

export type RouteInput<R extends RouteDefinition> = Simplify<
  ParamsPart<R> & QueryPart<R> & BodyPart<R> & TenantPart<R> & IdempotencyPart<R> & FilePart<R> & CommonOptions
>;

type SuccessStatus<R extends RouteDefinition> = Extract<keyof R["responses"], 200 | 201 | 202 | 203 | 204 | 206>;
type ContentTypeOf<Spec> = Spec extends { contentType: infer C extends string } ? C : "application/json";
/** Whether the operation's success is a file (not JSON). */
export type IsFile<R extends RouteDefinition> = {
  [S in SuccessStatus<R>]: ContentTypeOf<R["responses"][S]> extends "application/json" ? false : true;
}[SuccessStatus<R>] extends false
  ? false
  : true;

type Unwrap<R extends RouteDefinition, T> = R["errors"] extends "envelope" ? (T extends { status: "success"; data: infer D } ? D : T) : T;
type BodyOf<R extends RouteDefinition, S extends keyof R["responses"]> = R["responses"][S] extends { schema: infer Z extends z.ZodType }
  ? z.output<Z>
  : undefined;

/**
 * What an operation resolves with: the parsed body of its success (the main API's envelope
 * unwrapped to its `data`; undefined for a 204).
 */
export type RouteResult<R extends RouteDefinition> = { [S in SuccessStatus<R>]: Unwrap<R, BodyOf<R, S>> }[SuccessStatus<R>];

/** The whole answer: status, headers and the parsed body (envelope kept). */
export interface RouteReply<R extends RouteDefinition> {
  status: SuccessStatus<R>;
  headers: Headers;
  body: { [S in SuccessStatus<R>]: BodyOf<R, S> }[SuccessStatus<R>];
}

type FileResult<A> = A extends "stream" ? ReadableStream<Uint8Array> : A extends "blob" ? Blob : string;

/** Empty input may be left out. */
type InputArg<R extends RouteDefinition> = HasRequired<RouteInput<R>> extends true ? [input: RouteInput<R>] : [input?: RouteInput<R>];

/** One operation: call it for the result; `.reply` gives status and headers too; `.route` is its declaration. */
export type Operation<R extends RouteDefinition> = (IsFile<R> extends true
  ? <A extends FileAs = "text">(
      ...args: HasRequired<RouteInput<R>> extends true ? [input: RouteInput<R> & { as?: A }] : [input?: RouteInput<R> & { as?: A }]
    ) => Promise<FileResult<A>>
  : (...args: InputArg<R>) => Promise<RouteResult<R>>) & {
  reply(...args: InputArg<R>): Promise<IsFile<R> extends true ? { status: number; headers: Headers; body: unknown } : RouteReply<R>>;
  readonly route: R;
};

/** A typed method per operation of a route table, named by its operationId key. */
export type ApiClient<T extends RouteTable> = { readonly [K in keyof T]: Operation<T[K]> };
