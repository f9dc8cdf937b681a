import { z } from "zod";
import { ServiceId, TimestampOutput } from "../../common.js";
import { Page } from "../fields.js";

export const WebhookEventType = z
  .enum(["budget.threshold_crossed", "anomaly.detected", "import.completed", "dimension.applied"])
  .meta({ id: "WebhookEventType", description: "An event a webhook can subscribe to." });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookDeliveryType = z
  .enum([...WebhookEventType.options, "ping"])
  .meta({ id: "WebhookDeliveryType", description: "The `type` of a delivered event: a subscribed event, or `ping` (POST .../test)." });
export type WebhookDeliveryType = z.infer<typeof WebhookDeliveryType>;

const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .refine((value) => !/^[a-z]+:\/\/[^/?#]*@/i.test(value), "must not carry a user name or password")
  .meta({
    description:
      "The receiver's URL: `https` (plain `http`, and hosts that are or resolve to private, loopback or link-local addresses, are refused unless the service runs with WEBHOOK_ALLOW_INSECURE=1).",
  });

const Events = z
  .array(WebhookEventType)
  .min(1)
  .max(WebhookEventType.options.length)
  .transform((events) => [...new Set(events)]);
const Description = z.string().trim().max(500);

export const CreateWebhookRequest = z
  .object({ url: WebhookUrl, events: Events, description: Description.optional() })
  .meta({ id: "CreateWebhookRequest", description: "A receiver URL and the events it gets." });
export type CreateWebhookRequest = z.output<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = z
  .object({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: Description.nullable().optional(),
    active: z.boolean().optional().meta({ description: "`false` pauses deliveries of new events (pending ones still go out)." }),
  })
  .meta({ id: "UpdateWebhookRequest", description: "Fields to change; absent fields stay as they are." });
export type UpdateWebhookRequest = z.output<typeof UpdateWebhookRequest>;

export const Webhook = z
  .object({
    id: ServiceId,
    organization_id: ServiceId,
    url: z.string(),
    events: z.array(WebhookEventType),
    description: z.string().nullable(),
    active: z.boolean(),
    created_at: TimestampOutput,
    updated_at: TimestampOutput,
  })
  .meta({ id: "Webhook", description: "A webhook; its signing secret is shown only when it is created." });
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookResponse = Webhook.extend({
  secret: z.string().startsWith("whsec_").meta({ description: "The signing secret, shown only in this response." }),
}).meta({ id: "CreateWebhookResponse", description: "The new webhook with its signing secret (shown once)." });
export type CreateWebhookResponse = z.infer<typeof CreateWebhookResponse>;

export const WebhooksPage = Page(Webhook).meta({ id: "WebhooksPage", description: "A page of webhooks; `next_cursor` is null on the last page." });
export type WebhooksPage = z.infer<typeof WebhooksPage>;

export const WebhookPathParams = z
  .object({ org_id: ServiceId, id: ServiceId })
  .meta({ id: "WebhookPathParams", description: "Path parameters of /organizations/{org_id}/webhooks/{id}." });
export type WebhookPathParams = z.infer<typeof WebhookPathParams>;

export const WebhookDeliveryAttempt = z
  .object({
    attempt: z.number().int().min(1),
    started_at: TimestampOutput,
    status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none answered (refused, timeout, network error)." }),
    duration_ms: z.number().int().min(0),
    error: z.string().nullable(),
  })
  .meta({ id: "WebhookDeliveryAttempt", description: "One attempt to deliver an event." });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDelivery = z
  .object({
    id: ServiceId,
    webhook_id: ServiceId,
    event_id: ServiceId,
    type: WebhookDeliveryType,
    status: z.enum(["pending", "delivered", "failed"]).meta({ description: "`failed`: the retry window ended without a 2xx answer." }),
    created_at: TimestampOutput,
    finished_at: TimestampOutput.nullable(),
    attempts: z.array(WebhookDeliveryAttempt),
  })
  .meta({ id: "WebhookDelivery", description: "One event sent to one webhook, with every attempt (oldest first)." });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesPage = Page(WebhookDelivery).meta({
  id: "WebhookDeliveriesPage",
  description: "A page of deliveries, newest first; `next_cursor` is null on the last page.",
});
export type WebhookDeliveriesPage = z.infer<typeof WebhookDeliveriesPage>;

/**
 * The body of every delivery: a receiver verifies `Webhook-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">` and drops an `id` it has seen.
 */
export const WebhookEventBody = z
  .object({ id: ServiceId, type: WebhookDeliveryType, created_at: TimestampOutput, organization_id: ServiceId, data: z.record(z.string(), z.unknown()) })
  .meta({ id: "WebhookEventBody", description: "What a webhook receives (POST, application/json)." });
export type WebhookEventBody = z.infer<typeof WebhookEventBody>;
