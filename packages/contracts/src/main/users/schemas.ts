import { z } from "zod";
import { ServiceId, TimestampOutput } from "../../common.js";
import { OptionalText200, Page, Text200 } from "../fields.js";

export const Role = z.enum(["owner", "admin", "member", "viewer"]).meta({ id: "Role", description: "Role in the organization." });
export type Role = z.infer<typeof Role>;

export const User = z
  .object({
    id: ServiceId,
    organization_id: ServiceId,
    name: z.string(),
    // Not z.email() (ASCII only): sign-up keeps the identity provider's address, which may hold other characters.
    email: z
      .string()
      .regex(z.regexes.unicodeEmail)
      .describe("The e-mail address with its ASCII letters lower-cased and no other case folding (from the invitation, or the token at sign-up)."),
    role: Role,
    active: z.boolean(),
    joined_at: TimestampOutput,
    tenant_ids: z.array(ServiceId),
    avatar_url: z.string().nullable().optional(),
    job_title: z.string().nullable().optional(),
  })
  .meta({ id: "User", description: "A user of an organization." });
export type User = z.infer<typeof User>;

export const UserPathParams = z
  .object({ org_id: ServiceId, id: ServiceId })
  .meta({ id: "UserPathParams", description: "Path parameters of /organizations/{org_id}/users/{id}." });
export type UserPathParams = z.infer<typeof UserPathParams>;

export const UpdateUserRequest = z
  .object({
    role: Role.optional(),
    tenant_ids: z.array(ServiceId).optional(),
    active: z.boolean().optional(),
    name: Text200.optional(),
    job_title: OptionalText200.nullable().optional(),
  })
  .meta({ id: "UpdateUserRequest", description: "Fields of the user to change; `job_title: null` clears it." });
export type UpdateUserRequest = z.output<typeof UpdateUserRequest>;

export const UsersPage = Page(User).meta({ id: "UsersPage", description: "A page of users; `next_cursor` is null on the last page." });
export type UsersPage = z.infer<typeof UsersPage>;
