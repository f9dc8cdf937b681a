import express, { type RequestHandler } from "express";
import { HttpError, verifyJsonBody } from "@cloudcost/http";

/**
 * Usage bodies (POST /v1/pricing/usage and /v1/pricing/reports) may carry 10000 lines, which do
 * not fit in the 1 MiB every other body is held to (a labelled line is ~170 bytes); they get 8 MiB.
 * Mounted before the app-wide parser, which then skips the already parsed body.
 */
export const USAGE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export function usageBody(): RequestHandler {
  const parse = express.json({ limit: USAGE_BODY_LIMIT_BYTES, type: ["application/json", "application/*+json"], verify: verifyJsonBody });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large") {
        return next(new HttpError("payload_too_large", "The request body is larger than 8 MiB."));
      }
      next(err);
    });
}
