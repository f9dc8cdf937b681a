import { z } from "zod";
import { codesOf, ErrorEnvelope, MarketplaceError, ProblemDocument, type ErrorFormat, type RouteDefinition, type RouteTable } from "@cloudcost/contracts";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { IdempotencyKeyHeader } from "./operation";
import { responseHeaders } from "./response-headers";

const ERROR_BODIES: Record<ErrorFormat, { schema: z.ZodType; contentType: string }> = {
  problem: { schema: ProblemDocument, contentType: "application/problem+json" },
  marketplace: { schema: MarketplaceError, contentType: "application/json" },
  envelope: { schema: ErrorEnvelope, contentType: "application/json" },
};

const SECURITY: Record<RouteDefinition["auth"], Array<Record<string, string[]>>> = {
  api_key: [{ apiKey: [] }, { bearerKey: [] }],
  bearer: [{ bearer: [] }],
  identity: [{ bearer: [] }],
  service: [{ serviceToken: [] }],
  none: [],
};

const codes = (status: number) =>
  codesOf(status)
    .map((code) => `\`${code}\``)
    .join(", ");

/** The answers every operation can give besides its own, from what the declaration says. */
function genericResponses(route: RouteDefinition): Record<number, string> {
  const out: Record<number, string> = {};
  // Every operation: a body that is not JSON, a path that is not valid percent-encoding.
  out[400] = `Invalid request: the message names each invalid field (codes ${codes(400)})`;
  if (route.auth !== "none") out[401] = "Missing, malformed, expired, unknown or revoked credentials (code `unauthenticated`)";
  const restricted =
    (route.minKeyRole && route.minKeyRole !== "viewer") || route.roles || route.write || route.scope === "tenant" || route.scope === "organization";
  if (restricted) out[403] = "Authenticated but not allowed: role too low, or the tenant or organization is out of reach (code `forbidden`)";
  // A main API token whose identity has no active user in an organization acts as no one.
  else if (route.auth === "bearer") out[403] = "The identity has no active user in an organization, or the credential kind may not do this (code `forbidden`)";
  else if (route.auth === "identity") out[403] = "The credential kind may not do this: an API key, or an identity that is no invitee (code `forbidden`)";
  if (route.idempotent) {
    out[409] = "A request with the same Idempotency-Key is still being processed (code `idempotency_key_in_use`)";
    out[422] = "The Idempotency-Key was already used for a different request (code `idempotency_key_reused`)";
  }
  if (route.body || route.rawBody) {
    out[413] = `The body is larger than ${route.bodyLimit ?? "1 MiB"} (code \`payload_too_large\`)`;
    out[415] = "The body's encoding or charset is not supported (code `unsupported_media_type`)";
  }
  out[429] = "Too many requests from this address or credential; see Retry-After (code `rate_limited`)";
  out[500] = "Unexpected server error (code `internal_error`)";
  out[503] = `Temporarily unavailable, retry after Retry-After (codes ${codes(503)})`;
  return out;
}

const BINARY = z.string().meta({ format: "binary" });

/** A body the handler streams as a file: each accepted media type, as binary. */
function rawRequestBody(raw: NonNullable<RouteDefinition["rawBody"]>) {
  return {
    required: true,
    description: raw.description,
    content: Object.fromEntries(raw.contentTypes.map((type) => [type, { schema: type === "application/json" && raw.json ? raw.json : BINARY }])),
  };
}

/** One OpenAPI operation from a route declaration: parameters, body, every answer with its headers. */
export function routeOperation(route: RouteDefinition): ZodOpenApiOperationObject {
  const errorBody = ERROR_BODIES[route.errors];
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  const idempotent = Boolean(route.idempotent);
  for (const [status, description] of Object.entries(genericResponses(route))) {
    responses[status] = {
      description,
      headers: responseHeaders(Number(status), idempotent),
      content: { [errorBody.contentType]: { schema: errorBody.schema } },
    };
  }
  for (const [status, response] of Object.entries(route.responses)) {
    const generic = responses[status];
    const description = generic ? `${response.description}; or: ${generic.description}` : response.description;
    responses[status] = {
      description,
      headers: responseHeaders(Number(status), idempotent),
      ...(response.schema ? { content: { [response.contentType ?? "application/json"]: { schema: response.schema } } } : {}),
    };
  }
  const headers = route.idempotent ? (route.headers ?? z.object({})).extend({ "Idempotency-Key": IdempotencyKeyHeader }) : route.headers;
  const requestParams = Object.fromEntries(Object.entries({ path: route.params, query: route.query, header: headers }).filter(([, schema]) => schema));
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security: SECURITY[route.auth],
    requestParams,
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: route.body } } } } : {}),
    ...(route.rawBody ? { requestBody: rawRequestBody(route.rawBody) } : {}),
    responses,
  };
}

/** The paths of every public operation of a route table (service-to-service `internal` ones are left out). */
export function routePaths(table: RouteTable): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of Object.values(table)) {
    if (route.internal) continue;
    paths[route.path] = { ...paths[route.path], [route.method]: routeOperation(route) };
  }
  return paths;
}
