import { z } from "zod";

/**
 * Every error either service answers carries one of these codes: in a problem document's `code`
 * (pricing API `/v1`), and in the `X-Error-Code` response header (every error of both services).
 */
export const ErrorCode = z
  .enum([
    "invalid_request",
    "malformed_json",
    "malformed_path",
    "malformed_request",
    "request_aborted",
    "unauthenticated",
    "forbidden",
    "not_found",
    "price_not_found",
    "request_timeout",
    "conflict",
    "analysis_running",
    "limit_reached",
    "idempotency_key_in_use",
    "idempotency_key_reused",
    "idempotency_secret_not_replayed",
    "payload_too_large",
    "unsupported_media_type",
    "rate_limited",
    "headers_too_large",
    "internal_error",
    "pricing_unavailable",
    "service_unavailable",
  ])
  .meta({ id: "ErrorCode", description: "Stable snake_case code of an error answer (also sent as the `X-Error-Code` header)." });
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The HTTP status of each code: the one place a code's status is decided. */
export const errorStatus: Record<ErrorCode, number> = {
  invalid_request: 400,
  malformed_json: 400,
  malformed_path: 400,
  malformed_request: 400,
  request_aborted: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  price_not_found: 404,
  request_timeout: 408,
  conflict: 409,
  analysis_running: 409,
  limit_reached: 409,
  idempotency_key_in_use: 409,
  idempotency_secret_not_replayed: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  pricing_unavailable: 503,
  service_unavailable: 503,
};

export const ERROR_CODE_HEADER = "X-Error-Code";

/** The codes answered with `status`, for documenting a response. */
export const codesOf = (status: number): ErrorCode[] => ErrorCode.options.filter((code) => errorStatus[code] === status);
