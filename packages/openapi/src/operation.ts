import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { responseHeaders } from "./response-headers";

export interface OperationSpec {
  operationId?: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Security scheme names; [] for a public operation. */
  security: string[];
  body?: z.ZodType;
  query?: z.ZodObject;
  path?: z.ZodObject;
  headers?: z.ZodObject;
  /** Status → response body schema (or null for no body) and description. */
  responses: Record<number, ResponseSpec>;
  /** Accepts an optional `Idempotency-Key` header (POST operations): documents it and its 409/422 answers. */
  idempotent?: boolean;
}

type ResponseSpec = { description: string; schema?: z.ZodType | null; contentType?: string };

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

/** The header parameter and the 409/422 answers of an idempotent operation, in the operation's own error shape (its 400's). */
function withIdempotency(spec: OperationSpec): OperationSpec {
  if (!spec.idempotent) return spec;
  const headers = (spec.headers ?? z.object({})).extend({ "Idempotency-Key": IdempotencyKeyHeader });
  const errorShape = spec.responses[400];
  if (!errorShape) return { ...spec, headers };
  const inUse = "A request with the same Idempotency-Key is still being processed (code `idempotency_key_in_use`)";
  const conflict = spec.responses[409];
  return {
    ...spec,
    headers,
    responses: {
      ...spec.responses,
      409: conflict ? { ...conflict, description: `${conflict.description}; or: ${inUse}` } : { ...errorShape, description: inUse },
      422: { ...errorShape, description: "The Idempotency-Key was already used for a different request (code `idempotency_key_reused`)" },
    },
  };
}

/** One OpenAPI operation from contract schemas. */
export function operation(input: OperationSpec): ZodOpenApiOperationObject {
  const spec = withIdempotency(input);
  const responses: Record<string, ZodOpenApiResponsesObject[keyof ZodOpenApiResponsesObject]> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const headers = responseHeaders(Number(status), Boolean(spec.idempotent));
    responses[status] = response.schema
      ? { description: response.description, headers, content: { [response.contentType ?? "application/json"]: { schema: response.schema } } }
      : { description: response.description, headers };
  }
  return {
    ...(spec.operationId ? { operationId: spec.operationId } : {}),
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    security: spec.security.map((name) => ({ [name]: [] })),
    requestParams: Object.fromEntries(
      Object.entries({ query: spec.query, path: spec.path, header: spec.headers }).filter(([, schema]) => schema),
    ),
    requestBody: spec.body ? { required: true, content: { "application/json": { schema: spec.body } } } : undefined,
    responses,
  };
}

/** The parts of a generated document that callers read; the whole object is plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}
