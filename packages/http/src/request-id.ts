import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module "http" {
  interface IncomingMessage {
    /** The request id: the client's `X-Request-Id` when well-formed, else a new one. */
    id: string;
  }
}

export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    req.id = typeof incoming === "string" && VALID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", req.id);
    next();
  };
}
