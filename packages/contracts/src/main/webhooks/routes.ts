import type { z } from "zod";
import { PaginationQuery } from "../../common.js";
import { ErrorEnvelope, SuccessEnvelope } from "../envelope.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as w from "./schemas.js";
import { defineRoute, type RouteDefinition } from "../../api/route.js";

type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope" | "tags" | "roles">;
type Declared<S> = Omit<{ errors: "envelope"; auth: "bearer"; scope: "organization"; tags: ["Webhooks"]; roles: typeof MANAGERS }, keyof S> & S;

const MANAGERS = ["owner", "admin"] as const;
/** Webhooks are organization settings: owners and admins only, within the organization named by `{org_id}`. */
const managed = <const S extends Spec>(spec: S): Declared<S> =>
  ({ errors: "envelope", auth: "bearer", scope: "organization", tags: ["Webhooks"], roles: MANAGERS, ...spec }) as Declared<S>;
const ok = <T extends z.ZodType>(description: string, data: T) => ({ description, schema: SuccessEnvelope(data) });
const failure = (description: string) => ({ description, schema: ErrorEnvelope });
const NOT_FOUND = failure("No such webhook in the organization");
const SIGNATURE =
  'Each delivery is a POST of `{id, type, created_at, organization_id, data}` with `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`; ' +
  "failed deliveries are retried with exponential backoff for at least 24 hours, and an event keeps its id across retries.";

/** `/api/v1/organizations/{org_id}/webhooks`: signed event deliveries to the organization's receivers. */
export const mainApiWebhookRoutes = {
  createWebhook: defineRoute(
    managed({
      operationId: "createWebhook",
      method: "post",
      path: "/api/v1/organizations/{org_id}/webhooks",
      summary: "Register a webhook; its signing secret is shown once (owner/admin)",
      description: SIGNATURE,
      idempotent: "secret",
      params: OrganizationPathParams,
      body: w.CreateWebhookRequest,
      responses: {
        201: ok("The webhook, with its secret", w.CreateWebhookResponse),
        409: failure(
          "The organization already has 20 webhooks, the most it may have (code `limit_reached`); or a repeat with the same Idempotency-Key: the secret is shown only once, never replayed (code `idempotency_secret_not_replayed`)",
        ),
      },
    }),
  ),
  listWebhooks: defineRoute(
    managed({
      operationId: "listWebhooks",
      method: "get",
      path: "/api/v1/organizations/{org_id}/webhooks",
      summary: "Webhooks of the organization (paginated) (owner/admin)",
      params: OrganizationPathParams,
      query: PaginationQuery,
      responses: { 200: ok("A page of webhooks", w.WebhooksPage) },
    }),
  ),
  getWebhook: defineRoute(
    managed({
      operationId: "getWebhook",
      method: "get",
      path: "/api/v1/organizations/{org_id}/webhooks/{id}",
      summary: "One webhook (owner/admin)",
      params: w.WebhookPathParams,
      responses: { 200: ok("The webhook", w.Webhook), 404: NOT_FOUND },
    }),
  ),
  updateWebhook: defineRoute(
    managed({
      operationId: "updateWebhook",
      method: "patch",
      path: "/api/v1/organizations/{org_id}/webhooks/{id}",
      summary: "Change a webhook's URL, events or description, or pause it (owner/admin)",
      params: w.WebhookPathParams,
      body: w.UpdateWebhookRequest,
      responses: { 200: ok("The webhook", w.Webhook), 404: NOT_FOUND },
    }),
  ),
  deleteWebhook: defineRoute(
    managed({
      operationId: "deleteWebhook",
      method: "delete",
      path: "/api/v1/organizations/{org_id}/webhooks/{id}",
      summary: "Delete a webhook and its delivery log; pending deliveries are dropped (owner/admin)",
      params: w.WebhookPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: NOT_FOUND },
    }),
  ),
  testWebhook: defineRoute(
    managed({
      operationId: "testWebhook",
      method: "post",
      path: "/api/v1/organizations/{org_id}/webhooks/{id}/test",
      summary: "Send a `ping` event to the webhook (owner/admin); its attempts show in .../deliveries",
      description: "At most 10 pings a minute per webhook; beyond, a 429 with Retry-After.",
      idempotent: true,
      params: w.WebhookPathParams,
      responses: {
        202: ok("The ping delivery, queued", w.WebhookDelivery),
        404: NOT_FOUND,
        429: failure("The webhook was sent 10 pings in the last minute (code `rate_limited`); Retry-After says when the next is accepted"),
      },
    }),
  ),
  listWebhookDeliveries: defineRoute(
    managed({
      operationId: "listWebhookDeliveries",
      method: "get",
      path: "/api/v1/organizations/{org_id}/webhooks/{id}/deliveries",
      summary: "Deliveries of a webhook, newest first, with each attempt's status code, duration and error (paginated) (owner/admin)",
      params: w.WebhookPathParams,
      query: PaginationQuery,
      responses: { 200: ok("A page of deliveries", w.WebhookDeliveriesPage), 404: NOT_FOUND },
    }),
  ),
} as const;
