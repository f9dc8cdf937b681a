import { ERROR_CODE_HEADER, ErrorCode, type RouteDefinition } from "@cloudcost/contracts";
import { ApiError, codeOfStatus, type FieldError, messageOf } from "./errors.js";
import type { ArrayFormat, FileAs, QueryScalar, QueryValue } from "./types.js";

/** A value, or a function that gives it for each request (a token that is refreshed, say). */
export type Provider = string | undefined | (() => string | undefined | Promise<string | undefined>);

/** How one API is reached. */
export interface Transport {
  /** The API's root URL, where the route tables' paths start: `https://api.example.com`, or a relative `/pricing` in a browser. */
  baseUrl: string;
  /** The bearer token (main API) or API key (pricing API). */
  credential?: Provider;
  /** `fetch` to use (default the global one). */
  fetch?: typeof fetch;
  /** Default `repeat` (`a=x&a=y`); `comma` sends `a=x,y`. */
  arrayFormat?: ArrayFormat;
  /** Parse answers with the declared response schemas (default true); a mismatch is an ApiError `invalid_response`. */
  validateResponses?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Called with every ApiError before it is thrown (a console signs out on a 401, say). */
  onError?: (error: ApiError, request: { credentialSent: boolean }) => void;
}

/** The loose shape every operation's input has at run time. */
export interface AnyInput {
  params?: Record<string, unknown>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  contentType?: string;
  contentEncoding?: string;
  tenant?: string;
  idempotencyKey?: string;
  as?: FileAs;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  credential?: string;
}

export interface RawReply {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Fills `{name}` placeholders with the encoded params. */
export function fillPath(route: RouteDefinition, params: Record<string, unknown> = {}): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === "") throw new TypeError(`${route.operationId}: missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
}

const text = (value: QueryScalar) => (value instanceof Date ? value.toISOString() : String(value));

/** `?a=x&a=y` (or `?a=x,y`), leaving out undefined and null; "" when nothing is left. */
export function queryString(query: Record<string, QueryValue> | undefined, arrayFormat: ArrayFormat = "repeat"): string {
  if (!query) return "";
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = (value as readonly QueryScalar[]).map(text);
      if (items.length === 0) continue;
      if (arrayFormat === "comma") search.append(name, items.join(","));
      else for (const item of items) search.append(name, item);
    } else search.append(name, text(value as QueryScalar));
  }
  const out = search.toString();
  return out ? `?${out}` : "";
}

async function provide(value: Provider): Promise<string | undefined> {
  return typeof value === "function" ? value() : value;
}

function isStream(body: unknown): body is ReadableStream {
  return typeof ReadableStream !== "undefined" && body instanceof ReadableStream;
}

const jsonType = (contentType: string | null) => !!contentType && /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType);

async function readBody(res: Response): Promise<unknown> {
  const raw = await res.text();
  if (raw === "") return undefined;
  if (!jsonType(res.headers.get("content-type"))) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function retryAfter(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.round((date - Date.now()) / 1000));
}

function errorOf(route: RouteDefinition, res: Response, body: unknown): ApiError {
  const headerCode = ErrorCode.safeParse(res.headers.get(ERROR_CODE_HEADER));
  const bodyCode = ErrorCode.safeParse((body as { code?: unknown } | undefined)?.code);
  const code = headerCode.success ? headerCode.data : bodyCode.success ? bodyCode.data : codeOfStatus(res.status);
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  const fieldErrors = Array.isArray(errors)
    ? errors.filter((e): e is FieldError => !!e && typeof e === "object" && typeof e.path === "string" && typeof e.message === "string")
    : undefined;
  const requestId = (body as { request_id?: unknown } | undefined)?.request_id;
  return new ApiError({
    status: res.status,
    code,
    message: messageOf(body) ?? `${route.operationId} failed with HTTP ${res.status}`,
    operationId: route.operationId,
    body,
    fieldErrors,
    requestId: typeof requestId === "string" ? requestId : (res.headers.get("x-request-id") ?? undefined),
    retryAfterSeconds: retryAfter(res.headers),
  });
}

function isFile(route: RouteDefinition, status: number): boolean {
  const contentType = route.responses[status]?.contentType;
  return !!contentType && !/json/i.test(contentType);
}

/**
 * Sends one operation of a route table and reads its answer. A success is parsed with the schema
 * declared for its status (a mismatch, or an undeclared success status, is an ApiError
 * `invalid_response`); anything else is thrown as an ApiError with the API's status, code and message.
 */
export async function send(transport: Transport, route: RouteDefinition, input: AnyInput = {}): Promise<RawReply> {
  const url = `${transport.baseUrl.replace(/\/+$/, "")}${fillPath(route, input.params)}${queryString(input.query, transport.arrayFormat)}`;
  const headers: Record<string, string> = { Accept: "application/json", ...transport.headers };
  const credential = input.credential ?? (await provide(transport.credential));
  if (credential) {
    if (route.auth === "api_key") headers["X-API-Key"] = credential;
    else if (route.auth !== "none") headers.Authorization = `Bearer ${credential}`;
  }
  if (route.scope === "tenant" || route.headers?.shape["X-Service-Tenant-ID"]) {
    if (!input.tenant) throw new TypeError(`${route.operationId}: a tenant is required (X-Service-Tenant-ID)`);
    headers["X-Service-Tenant-ID"] = input.tenant;
  }
  if (input.idempotencyKey !== undefined) {
    if (!route.idempotent) throw new TypeError(`${route.operationId} does not take an Idempotency-Key`);
    headers["Idempotency-Key"] = input.idempotencyKey;
  }
  let body: BodyInit | undefined;
  if (route.rawBody) {
    if (input.body === undefined) throw new TypeError(`${route.operationId}: the file to send is required`);
    headers["Content-Type"] = input.contentType ?? route.rawBody.contentTypes[0];
    if (input.contentEncoding) headers["Content-Encoding"] = input.contentEncoding;
    body = input.body as BodyInit;
  } else if (input.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(input.body);
  }
  // A file answer (the CSV exports) is asked for by its media type; errors still come as JSON.
  const fileType = Object.values(route.responses).find((spec) => spec.contentType && !/json/i.test(spec.contentType))?.contentType;
  if (fileType) headers.Accept = `${fileType}, application/json`;
  Object.assign(headers, input.headers);

  const init: RequestInit & { duplex?: "half" } = { method: route.method.toUpperCase(), headers, body, signal: input.signal };
  // A streamed body (a large FOCUS file) needs half-duplex in Node.js and in browsers.
  if (isStream(body)) init.duplex = "half";
  const fail = (error: ApiError): never => {
    transport.onError?.(error, { credentialSent: !!credential });
    throw error;
  };
  let res: Response;
  try {
    res = await (transport.fetch ?? globalThis.fetch)(url, init);
  } catch (cause) {
    if ((cause as Error)?.name === "AbortError") throw cause;
    return fail(
      new ApiError({ status: 0, code: "network_error", message: `${route.operationId}: the API could not be reached`, operationId: route.operationId, cause }),
    );
  }
  if (res.status >= 200 && res.status < 300 && isFile(route, res.status)) {
    const as = input.as ?? "text";
    const value = as === "stream" ? res.body : as === "blob" ? await res.blob() : await res.text();
    return { status: res.status, headers: res.headers, body: value };
  }
  const raw = await readBody(res);
  if (res.status < 200 || res.status >= 300) return fail(errorOf(route, res, raw));
  const spec = route.responses[res.status];
  const invalid = (message: string, cause?: unknown) =>
    fail(
      new ApiError({
        status: res.status,
        code: "invalid_response",
        message: `${route.operationId}: ${message}`,
        operationId: route.operationId,
        body: raw,
        cause,
      }),
    );
  if (!spec) return invalid(`HTTP ${res.status} is not an answer the route declares`);
  if (!spec.schema || transport.validateResponses === false) return { status: res.status, headers: res.headers, body: spec.schema ? raw : undefined };
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ");
    return invalid(`the answer does not match its schema (${issues})`, parsed.error);
  }
  return { status: res.status, headers: res.headers, body: parsed.data };
}

/** The value an operation resolves with: the body, the main API's envelope unwrapped to its `data`. */
export function resultOf(route: RouteDefinition, reply: RawReply): unknown {
  if (route.errors === "envelope" && !isFile(route, reply.status) && reply.body && typeof reply.body === "object" && "data" in reply.body) {
    return (reply.body as { data: unknown }).data;
  }
  return reply.body;
}
