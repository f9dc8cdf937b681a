import type { ErrorCode } from "@cloudcost/contracts";

/** Codes of failures the client itself detects (no answer, or an answer that breaks the contract). */
export type ClientErrorCode = "network_error" | "invalid_response";

/** One invalid field of a 400 (pricing API `/v1` problem documents list them). */
export interface FieldError {
  path: string;
  message: string;
}

export interface ApiErrorInit {
  status: number;
  code: ErrorCode | ClientErrorCode;
  message: string;
  operationId: string;
  body?: unknown;
  fieldErrors?: FieldError[];
  requestId?: string;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * An operation that did not succeed: an error answer of either API (`status` and its stable
 * `code`, from the `X-Error-Code` header or the problem document), no answer at all (`status` 0,
 * `network_error`), or an answer that does not match the route's declared schema (`invalid_response`).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly operationId: string;
  /** The parsed error body (envelope, problem document or `{error}`), when there was one. */
  readonly body: unknown;
  readonly fieldErrors: FieldError[];
  readonly requestId: string | undefined;
  /** The `Retry-After` of a 429 or 503, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.operationId = init.operationId;
    this.body = init.body;
    this.fieldErrors = init.fieldErrors ?? [];
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** Whether `error` is an ApiError (with `code`, when given). */
export function isApiError(error: unknown, code?: ApiError["code"]): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** A code for a status when the answer named none (a proxy's own error page, say). */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return "invalid_request";
    case 401:
      return "unauthenticated";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 408:
      return "request_timeout";
    case 409:
      return "conflict";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 429:
      return "rate_limited";
    case 431:
      return "headers_too_large";
    case 503:
      return "service_unavailable";
    default:
      return status >= 500 ? "internal_error" : "invalid_request";
  }
}

/** The message of any of the three error bodies: envelope `message`, problem `detail`, marketplace `error`. */
export function messageOf(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ["message", "detail", "error"]) {
    if (typeof b[key] === "string" && b[key]) return b[key] as string;
  }
  return undefined;
}
