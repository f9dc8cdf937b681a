import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { AuthMode, RouteDefinition, RouteInput, RouteReply, RouteTable } from "@cloudcost/contracts";
import { HttpError } from "./http-error";
import { parseOr400 } from "./validate";

/** The request a handler answers, as far as it needs to know it (problem documents name both). */
export interface RequestMeta {
  id: string;
  /** The path as requested, without the query. */
  path: string;
}

/** The body of a `rawBody` operation, which the handler streams itself (it is never parsed). */
export interface RawBody {
  stream: Readable;
  /** Lower-cased media type without parameters; "" when absent. */
  contentType: string;
  /** Lower-cased; "identity" when absent. */
  contentEncoding: string;
  /** The declared length, when the client sent one. */
  contentLength: number | undefined;
}

/** What the binder adds to the app's context of an operation: the request, and the raw body of a `rawBody` one. */
export type BinderContext<R extends RouteDefinition> = { request: RequestMeta } & (R extends { rawBody: object } ? { body: RawBody } : unknown);

/** An answer written as given: a stream piped to the client (a failure after the first bytes cuts it short). */
export interface StreamReply<S extends number = number> {
  status: S;
  headers: Record<string, string>;
  stream: Readable;
}

/** An answer already serialised (the hot path skips Express's body handling, ETag included). */
export interface TextReply<S extends number = number> {
  status: S;
  headers: Record<string, string>;
  text: string;
}

type Status<R extends RouteDefinition> = keyof R["responses"] & number;

/** One of the operation's declared answers: a body for the binder to send, or a stream or text written as given. */
export type HandlerReply<R extends RouteDefinition> = RouteReply<R> | StreamReply<Status<R>> | TextReply<Status<R>>;

/** What an operation's handler does: takes the parsed input and the context the app's authorize built, returns the answer. */
export type RouteHandler<R extends RouteDefinition, C = unknown> = (
  input: RouteInput<R>,
  ctx: C & BinderContext<R>,
) => HandlerReply<R> | Promise<HandlerReply<R>>;

/** Handlers of a table, each typed by the context `ContextOf` gives its operation. */
export type RouteHandlers<T extends RouteTable> = { [K in keyof T]: RouteHandler<T[K], never> };

/** The request as authentication reads it: Node's request, with the URL as the client sent it. */
export type AuthRequest = IncomingMessage & { originalUrl: string };

/**
 * Establishes who calls from the request's credential and records it on the request (for authorize
 * and idempotency); throws a 401 for a missing or bad one. A promise only when it must wait.
 */
export type Authenticate = (req: AuthRequest) => void | Promise<void>;

export interface RouteHooks {
  /** The authentication of each credential kind the table uses (a route whose kind has none is refused at start). */
  authenticate: Partial<Record<Exclude<AuthMode, "none">, Authenticate>>;
  /**
   * Runs after authentication and validation: refuses (throws) a caller the operation does not
   * admit, and otherwise returns the handler's context, built from what authentication established.
   */
  authorize(route: RouteDefinition, req: Request, input: RouteInput<RouteDefinition>): object | Promise<object>;
  /** `Idempotency-Key` handling of an operation declared idempotent. */
  idempotency?(route: RouteDefinition): RequestHandler | undefined;
  /**
   * Admission of the operation's requests (a concurrency limit and bounded wait per class of
   * operations, admission.ts): runs first, before any other step, so an overloaded service refuses
   * a request before it spends anything on it. Undefined: admitted at once.
   */
  admit?(route: RouteDefinition): RequestHandler | undefined;
}

/** Set on the handler a declaration was bound to: listRoutes reports the operation a route comes from. */
export const OPERATION_ID = Symbol.for("cloudcost.operationId");

const EMPTY = Object.freeze({});

/** `/pins/{kind}/{resource_id}` → `/pins/:kind/:resource_id`. */
export const expressPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");

function headersOf(route: RouteDefinition, req: Request): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(route.headers?.shape ?? EMPTY)) out[name] = req.headers[name.toLowerCase()];
  return out;
}

/** A raw body's media type and encoding as the table declares them, or a 415 (validation, so before any authorization). */
function checkRawBody(raw: NonNullable<RouteDefinition["rawBody"]>, req: Request): void {
  const { contentType, contentEncoding } = rawBodyOf(req);
  if (!raw.contentTypes.includes(contentType)) throw new HttpError("unsupported_media_type", `The request body must be one of ${raw.contentTypes.join(", ")}.`);
  if (contentEncoding !== "identity" && !raw.contentEncodings?.includes(contentEncoding))
    throw new HttpError("unsupported_media_type", `Content-Encoding ${contentEncoding} is not supported.`);
}

/** Every declared part parsed with its schema, or a 400 naming each invalid field (before any authorization). */
function parseInput<R extends RouteDefinition>(route: R, req: Request): RouteInput<R> {
  const input = {
    params: route.params ? parseOr400(route.params, req.params, "path") : EMPTY,
    query: route.query ? parseOr400(route.query, req.query, "query") : EMPTY,
    headers: route.headers ? parseOr400(route.headers, headersOf(route, req), "headers") : EMPTY,
    body: route.body ? parseOr400(route.body, req.body, "body") : EMPTY,
  } as RouteInput<R>;
  if (route.rawBody) {
    checkRawBody(route.rawBody, req);
    // The JSON alternative of a raw body was parsed by the app's JSON body parser: validated like a body.
    if (route.rawBody.json)
      (input as { body: unknown }).body = rawBodyOf(req).contentType === "application/json" ? parseOr400(route.rawBody.json, req.body, "body") : undefined;
  }
  return input;
}

function rawBodyOf(req: Request): RawBody {
  const length = Number(req.headers["content-length"]);
  return {
    stream: req,
    contentType: (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase(),
    contentEncoding: (req.headers["content-encoding"] ?? "identity").trim().toLowerCase(),
    contentLength: Number.isFinite(length) ? length : undefined,
  };
}

type AnyReply = { status: number; body?: unknown } | StreamReply | TextReply;

function sendReply(res: Response, reply: AnyReply, next: NextFunction): void {
  if ("stream" in reply || "text" in reply) {
    res.status(reply.status);
    for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
    if ("text" in reply) res.end(reply.text);
    else pipeline(reply.stream, res).then(undefined, next);
    return;
  }
  if (reply.body === undefined) res.status(reply.status).end();
  else res.status(reply.status).json(reply.body);
}

/**
 * The one Express handler of a declared operation: parse every part, authenticate (a bad credential
 * is a 401 even for an invalid request), answer an invalid request 400 before any authorization
 * decision, then authorize (which builds the handler's context) and claim the idempotency key,
 * then the handler. The steps are chained here rather than as Express layers so that the parsed
 * input and the context stay in this closure; a request whose steps all answer synchronously (a
 * cached key, no Idempotency-Key) creates no promise.
 */
function bindOne<R extends RouteDefinition>(route: R, handler: RouteHandler<R, never>, hooks: RouteHooks): RequestHandler {
  const before: RequestHandler[] = [];
  const admit = hooks.admit?.(route);
  if (admit) before.push(admit);
  if (route.auth !== "none") {
    const authenticate = hooks.authenticate[route.auth];
    if (!authenticate) throw new Error(`${route.operationId}: no authentication for the auth mode "${route.auth}"`);
    before.push((req, _res, next) => {
      const pending = authenticate(req);
      if (pending instanceof Promise) pending.then(() => next(), next);
      else next();
    });
  }
  const after: RequestHandler[] = [];
  if (route.idempotent) {
    const idempotency = hooks.idempotency?.(route);
    if (!idempotency) throw new Error(`${route.operationId}: declared idempotent, but the app supplies no idempotency handling`);
    after.push(idempotency);
  }

  const run = (input: RouteInput<R>, ctx: object, req: Request, res: Response, next: NextFunction) => {
    // The parsed input is all the handler reads (the idempotency fingerprint was taken already).
    req.body = undefined;
    const full = { ...ctx, request: { id: req.id, path: req.originalUrl.split("?")[0] }, ...(route.rawBody ? { body: rawBodyOf(req) } : {}) };
    let out: AnyReply | Promise<AnyReply>;
    try {
      out = handler(input, full as never);
    } catch (err) {
      return next(err);
    }
    if (out instanceof Promise) {
      out.then((reply) => sendReply(res, reply, next), next);
      return;
    }
    sendReply(res, out, next);
  };

  const handle: RequestHandler = (req, res, next) => {
    let input: RouteInput<R> | undefined;
    let invalid: unknown;
    try {
      input = parseInput(route, req);
    } catch (err) {
      invalid = err;
    }
    let ctx: object | undefined;
    const steps = [...before, authorizeStep, ...after];
    let at = 0;
    function authorizeStep(_req: Request, _res: Response, done: NextFunction): void {
      const built = hooks.authorize(route, req, input as RouteInput<RouteDefinition>);
      if (built instanceof Promise) {
        built.then((value) => {
          ctx = value;
          done();
        }, done);
        return;
      }
      ctx = built;
      done();
    }
    const step = (err?: unknown): void => {
      // After authentication: a missing or bad credential is a 401; otherwise an invalid request
      // is a 400 before any authorization decision (authentication's own 403s included).
      if (at === before.length && invalid !== undefined && !(err instanceof HttpError && err.status === 401)) {
        next(invalid);
        return;
      }
      if (err) {
        next(err);
        return;
      }
      if (at === steps.length) {
        if (input === undefined || ctx === undefined) next(invalid);
        else run(input, ctx, req, res, next);
        return;
      }
      const middleware = steps[at++];
      try {
        const pending: unknown = middleware(req, res, step);
        if (pending instanceof Promise) pending.then(undefined, step);
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
  Object.defineProperty(handle, OPERATION_ID, { value: route.operationId });
  return handle;
}

/**
 * Registers every operation of `table` on `router` with its handler: the only way an operation
 * reaches Express, so every route of the app is one of the table (a test checks it with listRoutes).
 */
export function registerRoutes<T extends RouteTable>(router: Router, table: T, handlers: NoInfer<RouteHandlers<T>>, hooks: RouteHooks): void {
  for (const name of Object.keys(table) as Array<keyof T & string>) {
    const route = table[name];
    const handler = handlers[name];
    if (typeof handler !== "function") throw new Error(`${route.operationId}: no handler`);
    router[route.method](expressPath(route.path), bindOne(route, handler, hooks));
  }
}

/** Drops a parsed body the handler no longer needs, so that it is not kept alive while the handler waits. */
export function releaseBody(input: { body?: unknown }): void {
  input.body = undefined;
}
