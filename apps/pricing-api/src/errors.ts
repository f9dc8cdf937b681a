import type { MarketplaceError, ProblemDocument } from "@cloudcost/contracts";
import type { Request } from "express";
import { statusTitle, type ErrorRenderer, type HttpError } from "@cloudcost/http";

export const problemType = (code: string) => `urn:cloudcost:problem:${code}`;

/** The RFC 9457 problem document of an error (also embedded per item in batch answers). */
export function problemDocument(req: Request, error: HttpError): ProblemDocument {
  return {
    type: problemType(error.code),
    title: statusTitle(error.status),
    status: error.status,
    detail: error.message,
    instance: req.originalUrl.split("?")[0],
    code: error.code,
    ...(error.errors ? { errors: error.errors } : {}),
    request_id: req.id,
  };
}

/** `/v1/...` answers RFC 9457 problem documents. */
export const renderProblem: ErrorRenderer = (req, res, error) => {
  const body = problemDocument(req, error);
  res.status(error.status).type("application/problem+json").send(JSON.stringify(body));
};

/** `/marketplace/...` (and everything outside `/v1`) answers `{error}`. */
export const renderMarketplaceError: ErrorRenderer = (_req, res, error) => {
  const body: MarketplaceError = { error: error.message };
  res.status(error.status).json(body);
};

export const renderPricingError: ErrorRenderer = (req, res, error) =>
  (req.path.startsWith("/v1/") || req.path === "/v1" ? renderProblem : renderMarketplaceError)(req, res, error);
