import type { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from "zod-openapi";

export interface OperationSpec {
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
  responses: Record<number, { description: string; schema?: z.ZodType | null; contentType?: string }>;
}

/** One OpenAPI operation from contract schemas. */
export function operation(spec: OperationSpec): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponsesObject[keyof ZodOpenApiResponsesObject]> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = response.schema
      ? { description: response.description, content: { [response.contentType ?? "application/json"]: { schema: response.schema } } }
      : { description: response.description };
  }
  return {
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
