import type { ErrorEnvelope } from "@cloudcost/contracts";
import type { ClientErrorBody, ErrorRenderer } from "@cloudcost/http";

/** The main API's error shape: the envelope with only `message` and `status`. */
export const renderEnvelopeError: ErrorRenderer = (_req, res, error) => {
  const body: ErrorEnvelope = { message: error.message, status: "error" };
  res.status(error.status).json(body);
};

/** The same envelope for a request Node's HTTP parser refused (a 431, say). */
export const envelopeClientErrorBody: ClientErrorBody = (_path, error) => {
  const body: ErrorEnvelope = { message: error.message, status: "error" };
  return { contentType: "application/json; charset=utf-8", body: JSON.stringify(body) };
};
