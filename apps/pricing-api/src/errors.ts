import type { ErrorCode, MarketplaceError, ProblemDocument } from "@cloudcost/contracts";
import { statusTitle, type ClientErrorBody, type ErrorRenderer, type HttpError, type RequestMeta } from "@cloudcost/http";

export const problemType = (code: ErrorCode) => `urn:cloudcost:problem:${code}`;

/** The RFC 9457 problem document of an error (also embedded per item in batch answers). */
export function problemDocument(request: RequestMeta, error: HttpError): ProblemDocument {
  return problemOf(request.path, error, request.id);
}

function problemOf(instance: string, error: HttpError, requestId: string): ProblemDocument {
  return {
    type: problemType(error.code),
    title: statusTitle(error.status),
    status: error.status,
    detail: error.message,
    instance,
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    request_id: requestId,
  };
}

const isV1 = (path: string) => path.startsWith("/v1/") || path === "/v1";

/** `/v1/...` answers RFC 9457 problem documents. */
export const renderProblem: ErrorRenderer = (req, res, error) => {
  const body = problemDocument({ id: req.id, path: req.originalUrl.split("?")[0] }, error);
  res.status(error.status).type("application/problem+json").send(JSON.stringify(body));
};

/** `/marketplace/...` (and everything outside `/v1`) answers `{error}`. */
export const renderMarketplaceError: ErrorRenderer = (_req, res, error) => {
  const body: MarketplaceError = { error: error.message };
  res.status(error.status).json(body);
};

export const renderPricingError: ErrorRenderer = (req, res, error) => (isV1(req.path) ? renderProblem : renderMarketplaceError)(req, res, error);

/** The same shapes for a request Node's HTTP parser refused (a 431, say), chosen by its path. */
export const pricingClientErrorBody: ClientErrorBody = (path, error, requestId) => {
  if (isV1(path)) return { contentType: "application/problem+json", body: JSON.stringify(problemOf(path, error, requestId)) };
  const body: MarketplaceError = { error: error.message };
  return { contentType: "application/json; charset=utf-8", body: JSON.stringify(body) };
};
