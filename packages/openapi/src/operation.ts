import { z } from "zod";

export const IdempotencyKeyHeader = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .meta({
    description:
      "1-255 printable ASCII characters chosen by the client. The first completed response (status and body) is stored per caller " +
      "and key for 24 hours and replayed, with `Idempotent-Replayed: true`, for a repeat with the same body; the same key with a " +
      "different body is a 422, a repeat while the first is still running a 409. Requests that fail validation (400) or the server (5xx) are not stored.",
  });

/** The parts of a generated document that callers read; the whole object is plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}
