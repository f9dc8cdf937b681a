import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { ERROR_CODE_HEADER, HttpError, type ErrorCode } from "./http-error";
import { isDatabaseUnavailable } from "./unavailable";
import { JSON_BODY_LIMIT } from "./json-body";

/** Writes an HttpError in the API's own error shape. */
export type ErrorRenderer = (req: Request, res: Response, error: HttpError) => void;

/** Renders `error` with its stable code in the `X-Error-Code` header (every error answer carries it). */
export function renderError(render: ErrorRenderer, req: Request, res: Response, error: HttpError): void {
  res.setHeader(ERROR_CODE_HEADER, error.code);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  render(req, res, error);
}

export function notFoundHandler(render: ErrorRenderer): RequestHandler {
  return (req, res) => renderError(render, req, res, new HttpError("not_found", `No route for ${req.method} ${req.path}`));
}

/** Codes of client errors other middleware raise with only a status. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  408: "request_timeout",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  431: "headers_too_large",
};

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  const e = err as BodyParserError;
  switch (e?.type) {
    case "entity.parse.failed":
      return new HttpError("malformed_json", "The request body is not valid JSON.");
    case "entity.too.large":
      return new HttpError("payload_too_large", `The request body is larger than ${JSON_BODY_LIMIT}.`);
    case "encoding.unsupported":
    case "charset.unsupported":
      return new HttpError("unsupported_media_type", "The request body encoding or charset is not supported.");
    case "request.aborted":
      return new HttpError("request_aborted", "The request was aborted by the client.");
  }
  // The router cannot percent-decode a path parameter (`%`, `%zz`, `%ff`): it throws a URIError
  // with status 400 but without `expose`, which would otherwise end as a 500.
  if (err instanceof URIError) {
    return new HttpError("malformed_path", "The request path is not valid percent-encoded UTF-8.");
  }
  const status = e?.status ?? e?.statusCode;
  if (e?.expose && status && status >= 400 && status < 500) {
    return new HttpError(CODE_OF_STATUS[status] ?? "invalid_request", (err as Error).message);
  }
  return undefined;
}

/**
 * Turns every error into the API's shape: a lost database is a 503 `service_unavailable` (with
 * Retry-After); anything else unexpected is logged and answered as a bare 500.
 */
export function errorHandler(render: ErrorRenderer, logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = toHttpError(err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (known) return renderError(render, req, res, known);
    if (isDatabaseUnavailable(err)) {
      logger.warn({ err, requestId: req.id }, "database unavailable");
      res.setHeader("Retry-After", "5");
      return renderError(render, req, res, new HttpError("service_unavailable", "The service cannot reach its database right now; retry shortly."));
    }
    logger.error({ err, requestId: req.id }, "unhandled error");
    renderError(render, req, res, new HttpError("internal_error", "Internal server error."));
  };
}
