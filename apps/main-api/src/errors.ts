import type { ErrorEnvelope } from "@cloudcost/contracts";
import type { ErrorRenderer } from "@cloudcost/http";

/** The main API's error shape: the envelope with only `message` and `status`. */
export const renderEnvelopeError: ErrorRenderer = (_req, res, error) => {
  const body: ErrorEnvelope = { message: error.message, status: "error" };
  res.status(error.status).json(body);
};
