import { z } from "zod";
import { Currency, PaginationQuery, ServiceId, TimestampOutput, queryBoolean } from "../common.js";

export const Role = z.enum(["owner", "admin", "member", "viewer"]).meta({ id: "Role", description: "Role in the organization." });
export type Role = z.infer<typeof Role>;

/** Trimmed, non-blank text of at most 200 characters. */
const Text200 = z.string().trim().min(1).max(200);
const OptionalText200 = z.string().trim().max(200);

export const Slug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "must be [a-z0-9-] and must not start or end with '-'")
  .meta({ id: "Slug", description: "3-63 characters of [a-z0-9-], not starting or ending with '-'." });
export type Slug = z.infer<typeof Slug>;

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

export const Organization = z
  .object({ id: ServiceId, name: z.string(), slug: Slug })
  .meta({ id: "Organization", description: "An organization (the customer account)." });
export type Organization = z.infer<typeof Organization>;

export const Tenant = z
  .object({
    id: ServiceId,
    name: z.string(),
    organization_id: ServiceId,
    archived_at: TimestampOutput.nullable().optional(),
  })
  .meta({ id: "Tenant", description: "A tenant of an organization; `archived_at` is set once archived." });
export type Tenant = z.infer<typeof Tenant>;

export const UserPathParams = z
  .object({ org_id: ServiceId, id: ServiceId })
  .meta({ id: "UserPathParams", description: "Path parameters of /organizations/{org_id}/users/{id}." });
export type UserPathParams = z.infer<typeof UserPathParams>;

export const OrganizationPathParams = z
  .object({ org_id: ServiceId })
  .meta({ id: "OrganizationPathParams", description: "Path parameters of /organizations/{org_id}/..." });
export type OrganizationPathParams = z.infer<typeof OrganizationPathParams>;

export const TenantPathParams = z
  .object({ org_id: ServiceId, tenant_id: ServiceId })
  .meta({ id: "TenantPathParams", description: "Path parameters of /organizations/{org_id}/tenants/{tenant_id}." });
export type TenantPathParams = z.infer<typeof TenantPathParams>;

export const ApiKeyPathParams = z.object({ id: ServiceId }).meta({ id: "ApiKeyPathParams", description: "Path parameters of /settings/api-keys/{id}." });
export type ApiKeyPathParams = z.infer<typeof ApiKeyPathParams>;

export const ListTenantsQuery = PaginationQuery.extend({ include_archived: queryBoolean.optional() }).meta({
  id: "ListTenantsQuery",
  description: "Pagination; archived tenants are listed only with `include_archived=true`.",
});
export type ListTenantsQuery = z.output<typeof ListTenantsQuery>;

export const SignupCompleteRequest = z
  .object({
    company_name: Text200,
    first_name: Text200,
    last_name: Text200,
    job_title: OptionalText200.optional(),
    slug: Slug.optional(),
  })
  .meta({ id: "SignupCompleteRequest", description: "Completes signup for a verified identity." });
export type SignupCompleteRequest = z.output<typeof SignupCompleteRequest>;

export const SignupCompleteResponse = z
  .object({ default_tenant: Tenant, organization: Organization, owner: User })
  .meta({ id: "SignupCompleteResponse", description: "The created organization, default tenant and owner." });
export type SignupCompleteResponse = z.infer<typeof SignupCompleteResponse>;

export const UpdateOrganizationRequest = z
  .object({ name: Text200.optional(), slug: Slug.optional() })
  .meta({ id: "UpdateOrganizationRequest", description: "Fields of the organization to change." });
export type UpdateOrganizationRequest = z.output<typeof UpdateOrganizationRequest>;

export const CreateTenantRequest = z.object({ name: Text200 }).meta({ id: "CreateTenantRequest", description: "Creates a tenant." });
export type CreateTenantRequest = z.output<typeof CreateTenantRequest>;

export const UpdateTenantRequest = z
  .object({ name: Text200.optional(), archived: z.boolean().optional() })
  .meta({ id: "UpdateTenantRequest", description: "Renames, archives (`true`) or restores (`false`) a tenant." });
export type UpdateTenantRequest = z.output<typeof UpdateTenantRequest>;

export const InviteUserRequest = z
  .object({
    email: z.email(),
    role: Role,
    tenant_ids: z.array(ServiceId).optional(),
    name: Text200.optional(),
    job_title: OptionalText200.optional(),
  })
  .meta({
    id: "InviteUserRequest",
    description: "Invites an e-mail address to the organization with a role and tenants; the invitee accepts or declines.",
  });
export type InviteUserRequest = z.output<typeof InviteUserRequest>;

export const InvitationStatus = z
  .enum(["pending", "accepted", "declined", "revoked", "expired"])
  .meta({ id: "InvitationStatus", description: "`expired`: not answered within 7 days." });
export type InvitationStatus = z.infer<typeof InvitationStatus>;

export const Inviter = z
  .object({ user_id: ServiceId, name: z.string() })
  .nullable()
  .meta({ id: "Inviter", description: "The user who sent an invitation; null when an API key sent it." });
export type Inviter = z.infer<typeof Inviter>;

export const Invitation = z
  .object({
    id: ServiceId,
    organization_id: ServiceId,
    email: z.email(),
    role: Role,
    tenant_ids: z.array(ServiceId),
    name: z.string().nullable(),
    job_title: z.string().nullable(),
    invited_by: Inviter,
    invited_by_api_key_id: ServiceId.nullable(),
    status: InvitationStatus,
    created_at: TimestampOutput,
    expires_at: TimestampOutput,
    accepted_at: TimestampOutput.nullable(),
    declined_at: TimestampOutput.nullable(),
    revoked_at: TimestampOutput.nullable(),
  })
  .meta({ id: "Invitation", description: "An invitation to the organization, as its owners and admins see it." });
export type Invitation = z.infer<typeof Invitation>;

export const ReceivedInvitation = z
  .object({
    id: ServiceId,
    organization_id: ServiceId,
    organization_name: z.string(),
    role: Role,
    tenant_ids: z.array(ServiceId),
    invited_by: Inviter,
    expires_at: TimestampOutput,
    created_at: TimestampOutput,
  })
  .meta({ id: "ReceivedInvitation", description: "A pending invitation for the caller's verified e-mail address." });
export type ReceivedInvitation = z.infer<typeof ReceivedInvitation>;

export const InvitationPathParams = z
  .object({ org_id: ServiceId, id: ServiceId })
  .meta({ id: "InvitationPathParams", description: "Path parameters of /organizations/{org_id}/invitations/{id}." });
export type InvitationPathParams = z.infer<typeof InvitationPathParams>;

export const ReceivedInvitationPathParams = z
  .object({ id: ServiceId })
  .meta({ id: "ReceivedInvitationPathParams", description: "Path parameters of /invitations/{id}/accept and /decline." });
export type ReceivedInvitationPathParams = z.infer<typeof ReceivedInvitationPathParams>;

export const LeaveResponse = z
  .object({ organization_id: ServiceId, user_id: ServiceId })
  .meta({ id: "LeaveResponse", description: "The organization the caller left and its (now deactivated) user." });
export type LeaveResponse = z.infer<typeof LeaveResponse>;

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

// The decided range (docs/api.md, Organization and settings).
const LookbackDays = z.number().int().min(1).max(93);
const TargetPercent = z.number().int().min(1).max(100);
const ActiveWindowMinutes = z.number().int().min(1).max(10080);
export const SavingsBasis = z
  .enum(["effective", "list"])
  .meta({ id: "SavingsBasis", description: "`effective`: the organization's negotiated prices where they apply; `list`: catalog list prices only." });
export type SavingsBasis = z.infer<typeof SavingsBasis>;

const AnomalyMinUsd = z
  .number()
  .min(0)
  .max(1_000_000_000)
  .multipleOf(0.0001)
  .meta({ description: "A spend anomaly exceeds its expected daily cost by more than this many units of its currency (USD for USD spend; default 10)." });
const AnomalyMinPercent = z.number().min(0).max(10_000).multipleOf(0.0001).meta({ description: "... and by more than this percent of it (default 30)." });

export const OrganizationSettings = z
  .object({
    default_currency: Currency.default("USD"),
    rightsizing: z
      .object({
        lookback_days: LookbackDays.default(14),
        cpu_target_percent: TargetPercent.default(70),
        memory_target_percent: TargetPercent.default(80),
        allow_architecture_change: z.boolean().default(false),
        savings_basis: SavingsBasis.default("effective"),
      })
      .prefault({}),
    active_window_minutes: ActiveWindowMinutes.default(15),
    anomaly_min_usd: AnomalyMinUsd.default(10),
    anomaly_min_percent: AnomalyMinPercent.default(30),
  })
  .meta({ id: "OrganizationSettings", description: "Organization settings; parsing `{}` yields the defaults." });
export type OrganizationSettings = z.output<typeof OrganizationSettings>;

// Separate from OrganizationSettings on purpose: defaults here would reset fields a client did not send.
export const UpdateSettingsRequest = z
  .object({
    default_currency: Currency.optional(),
    rightsizing: z
      .object({
        lookback_days: LookbackDays.optional(),
        cpu_target_percent: TargetPercent.optional(),
        memory_target_percent: TargetPercent.optional(),
        allow_architecture_change: z.boolean().optional(),
        savings_basis: SavingsBasis.optional(),
      })
      .optional(),
    active_window_minutes: ActiveWindowMinutes.optional(),
    anomaly_min_usd: AnomalyMinUsd.optional(),
    anomaly_min_percent: AnomalyMinPercent.optional(),
  })
  .meta({ id: "UpdateSettingsRequest", description: "Settings to change; omitted fields keep their value." });
export type UpdateSettingsRequest = z.output<typeof UpdateSettingsRequest>;

/** Roles an API key may act with: never `owner` (keys cannot manage owners or other keys). */
export const ApiKeyRole = z.enum(["admin", "member", "viewer"]).meta({ id: "ApiKeyRole", description: "Role an API key acts with; `owner` is not allowed." });
export type ApiKeyRole = z.infer<typeof ApiKeyRole>;

export const ApiKeyCreator = z.object({ user_id: ServiceId, name: z.string() }).meta({
  id: "ApiKeyCreator",
  description: "The user who created a key: the key acts with at most this user's current role, and stops working while the user is deactivated.",
});
export type ApiKeyCreator = z.infer<typeof ApiKeyCreator>;

export const ApiKey = z
  .object({
    id: ServiceId,
    name: z.string(),
    role: Role,
    tenant_ids: z.array(ServiceId).optional(),
    prefix: z.string(),
    created_by: ApiKeyCreator.nullable(),
    created_at: TimestampOutput,
    last_used_at: TimestampOutput.nullable(),
    revoked_at: TimestampOutput.nullable(),
  })
  .meta({
    id: "ApiKey",
    description: "An API key; only its display prefix is ever returned after creation. It acts with at most the current role of its creator (`created_by`).",
  });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyRequest = z.object({ name: Text200, role: ApiKeyRole, tenant_ids: z.array(ServiceId).max(1000).optional() }).meta({
  id: "CreateApiKeyRequest",
  description: "Creates an API key acting with `role`; member and viewer keys reach only `tenant_ids`, admin keys every tenant.",
});
export type CreateApiKeyRequest = z.output<typeof CreateApiKeyRequest>;

export const CreateApiKeyResponse = ApiKey.extend({ key: z.string().startsWith("bl_") }).meta({
  id: "CreateApiKeyResponse",
  description: "The new key; `key` is shown only in this response.",
});
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

export type Page<T extends z.ZodType> = z.ZodObject<{ items: z.ZodArray<T>; next_cursor: z.ZodNullable<z.ZodString> }, z.core.$strip>;

/** A page of `item`; `next_cursor` is null on the last page. */
export function Page<T extends z.ZodType>(item: T): Page<T> {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

export const UsersPage = Page(User).meta({ id: "UsersPage", description: "A page of users; `next_cursor` is null on the last page." });
export type UsersPage = z.infer<typeof UsersPage>;

export const TenantsPage = Page(Tenant).meta({ id: "TenantsPage", description: "A page of tenants; `next_cursor` is null on the last page." });
export type TenantsPage = z.infer<typeof TenantsPage>;

export const ApiKeysPage = Page(ApiKey).meta({ id: "ApiKeysPage", description: "A page of API keys; `next_cursor` is null on the last page." });
export type ApiKeysPage = z.infer<typeof ApiKeysPage>;

export const InvitationsPage = Page(Invitation).meta({
  id: "InvitationsPage",
  description: "A page of an organization's invitations; `next_cursor` is null on the last page.",
});
export type InvitationsPage = z.infer<typeof InvitationsPage>;

export const ReceivedInvitationsPage = Page(ReceivedInvitation).meta({
  id: "ReceivedInvitationsPage",
  description: "A page of the caller's pending invitations; `next_cursor` is null on the last page.",
});
export type ReceivedInvitationsPage = z.infer<typeof ReceivedInvitationsPage>;

export const Me = z
  .object({
    organization: Organization,
    user: User.nullable(),
    role: Role,
    tenant_ids: z.array(ServiceId),
    api_key_id: ServiceId.nullable(),
  })
  .meta({ id: "Me", description: "The caller: its organization, its user (null for an API key), role and tenants." });
export type Me = z.infer<typeof Me>;
