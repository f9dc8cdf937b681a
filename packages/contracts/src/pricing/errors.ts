import { z } from "zod";

export const MarketplaceError = z.object({ error: z.string() }).meta({ id: "MarketplaceError", description: "Error body of the /marketplace paths." });
export type MarketplaceError = z.infer<typeof MarketplaceError>;

export const ProblemFieldError = z
  .object({ path: z.string(), message: z.string() })
  .meta({ id: "ProblemFieldError", description: "One invalid field: its dotted path (e.g. `entries.0.provider`) and what is wrong." });
export type ProblemFieldError = z.infer<typeof ProblemFieldError>;

export const ProblemDocument = z
  .looseObject({
    type: z.url(),
    title: z.string(),
    status: z.number().int().min(100).max(599),
    detail: z.string(),
    instance: z.string(),
    code: z.string().regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, "must be snake_case"),
    errors: z.array(ProblemFieldError).optional(),
    request_id: z.string().optional(),
  })
  .meta({ id: "ProblemDocument", description: "RFC 9457 problem document (application/problem+json) of the /v1 paths." });
export type ProblemDocument = z.infer<typeof ProblemDocument>;
