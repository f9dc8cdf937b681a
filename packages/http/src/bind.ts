import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { AuthMode, RouteDefinition, RouteInput, RouteReply, RouteTable } from "@cloudcost/contracts";
import { HttpError } from "./http-error";
import { parseOr400 } from "./validate";

/** What an operation's handler does: returns the answer to send, or sends it itself. */
export type RouteHandler<R extends RouteDefinition> = (
  input: RouteInput<R>,
  req: Request,
  res: Response,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that streams or sends its answer itself returns nothing
) => RouteReply<R> | void | Promise<RouteReply<R> | void>;

export type RouteHandlers<T extends RouteTable> = { [K in keyof T]: RouteHandler<T[K]> };

export interface RouteHooks {
  /** The middleware of each credential kind the table uses (a route whose kind has none is refused at start). */
  authenticate: Partial<Record<Exclude<AuthMode, "none">, RequestHandler>>;
  /** Role and scope checks of one operation, run after authentication. */
  authorize?(route: RouteDefinition): RequestHandler | undefined;
  /** `Idempotency-Key` handling of an operation declared idempotent. */
  idempotency?(route: RouteDefinition): RequestHandler | undefined;
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

/** Every declared part parsed with its schema, or a 400 naming each invalid field (before any authorization). */
function parseInput<R extends RouteDefinition>(route: R, req: Request): RouteInput<R> {
  return {
    params: route.params ? parseOr400(route.params, req.params, "path") : EMPTY,
    query: route.query ? parseOr400(route.query, req.query, "query") : EMPTY,
    headers: route.headers ? parseOr400(route.headers, headersOf(route, req), "headers") : EMPTY,
    body: route.body ? parseOr400(route.body, req.body, "body") : EMPTY,
  } as RouteInput<R>;
}

function sendReply(res: Response, reply: { status: number; body?: unknown }): void {
  if (reply.body === undefined) res.status(reply.status).end();
  else res.status(reply.status).json(reply.body);
}

/**
 * The one Express handler of a declared operation: parse every part, authenticate (a bad credential
 * is a 401 even for an invalid request), answer an invalid request 400 before any authorization
 * decision, then authorize and claim the idempotency key (each a middleware the app supplies), then
 * the handler. The steps are chained here rather than as Express layers so that the parsed input
 * stays in this closure; a request whose steps all answer synchronously (a cached key, no
 * Idempotency-Key) creates no promise.
 */
function bindOne<R extends RouteDefinition>(route: R, handler: RouteHandler<R>, hooks: RouteHooks): RequestHandler {
  const steps: RequestHandler[] = [];
  if (route.auth !== "none") {
    const authenticate = hooks.authenticate[route.auth];
    if (!authenticate) throw new Error(`${route.operationId}: no authentication for the auth mode "${route.auth}"`);
    steps.push(authenticate);
  }
  const authorize = hooks.authorize?.(route);
  if (authorize) steps.push(authorize);
  if (route.idempotent) {
    const idempotency = hooks.idempotency?.(route);
    if (!idempotency) throw new Error(`${route.operationId}: declared idempotent, but the app supplies no idempotency handling`);
    steps.push(idempotency);
  }

  const run = (input: RouteInput<R>, req: Request, res: Response, next: NextFunction) => {
    let out: ReturnType<RouteHandler<R>>;
    try {
      out = handler(input, req, res);
    } catch (err) {
      return next(err);
    }
    if (out === undefined) return;
    if (out instanceof Promise) {
      out.then((reply) => reply && sendReply(res, reply), next);
      return;
    }
    sendReply(res, out);
  };

  const authenticates = route.auth !== "none";
  const handle: RequestHandler = (req, res, next) => {
    let input: RouteInput<R> | undefined;
    let invalid: unknown;
    try {
      input = parseInput(route, req);
    } catch (err) {
      invalid = err;
    }
    let at = 0;
    const step = (err?: unknown): void => {
      // After authentication: a missing or bad credential is a 401; otherwise an invalid request
      // is a 400 before any authorization decision (authentication's own 403s included).
      if (at === (authenticates ? 1 : 0) && invalid !== undefined && !(err instanceof HttpError && err.status === 401)) {
        next(invalid);
        return;
      }
      if (err) {
        next(err);
        return;
      }
      if (at === steps.length) {
        if (input === undefined) next(invalid);
        else run(input, req, res, next);
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
export function releaseBody(input: { body?: unknown }, req: Request): void {
  input.body = undefined;
  req.body = undefined;
}
