import type { z } from "zod";
import {
  ApiKey,
  ApiKeyPathParams,
  ApiKeysPage,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  CreateTenantRequest,
  ErrorEnvelope,
  Invitation,
  InvitationPathParams,
  InvitationsPage,
  InviteUserRequest,
  LeaveResponse,
  ListTenantsQuery,
  Me,
  OrganizationPathParams,
  Organization,
  OrganizationSettings,
  Page,
  ReceivedInvitation,
  ReceivedInvitationsPage,
  Role,
  SignupCompleteRequest,
  SignupCompleteResponse,
  SuccessEnvelope,
  Tenant,
  TenantPathParams,
  TenantsPage,
  UpdateOrganizationRequest,
  UpdateSettingsRequest,
  UpdateTenantRequest,
  UpdateUserRequest,
  User,
  UserPathParams,
  UsersPage,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

const tenant = { id: "ten_01JD8X3ZK2", name: "Default", organization_id: "org_01JD8X3ZK2" };
const organization = { id: "org_01JD8X3ZK2", name: "Acme Corp", slug: "acme-corp" };
const owner = {
  id: "usr_01JD8X3ZK2",
  organization_id: "org_01JD8X3ZK2",
  name: "Ada Lovelace",
  email: "ada@acme.example",
  role: "owner",
  active: true,
  joined_at: "2026-11-21T22:47:22.123Z",
  tenant_ids: ["ten_01JD8X3ZK2"],
  job_title: "CTO",
};

describe("envelopes", () => {
  const Envelope = SuccessEnvelope(Organization);
  it("wraps data in a success envelope", () => {
    accept(Envelope, { message: "OK", status: "success", data: organization });
  });
  it("rejects an error status, missing data or invalid data", () => {
    reject(Envelope, { message: "OK", status: "error", data: organization }, ["status"]);
    reject(Envelope, { message: "OK", status: "success" }, ["data"]);
    reject(Envelope, { message: "OK", status: "success", data: { ...organization, slug: "Acme" } }, ["data", "slug"]);
  });
  it("ErrorEnvelope has only message and status", () => {
    accept(ErrorEnvelope, { message: "X-Service-Tenant-ID header is required", status: "error" });
    reject(ErrorEnvelope, { message: "nope", status: "error", data: null });
    reject(ErrorEnvelope, { message: "nope", status: "success" }, ["status"]);
    reject(ErrorEnvelope, { status: "error" }, ["message"]);
  });
});

describe("User, Organization, Tenant", () => {
  it("accept the signup response body", () => {
    const data = accept(SignupCompleteResponse, { default_tenant: tenant, organization, owner });
    expect(data.owner.role).toBe("owner");
    accept(User, { ...owner, avatar_url: null, job_title: null });
    // Sign-up keeps a provider's non-ASCII address (only ASCII letters are lower-cased).
    accept(User, { ...owner, email: "\u212Aate@acme.example" });
    accept(Tenant, { ...tenant, archived_at: "2026-11-21T22:47:22.123Z" });
  });
  it("reject an unknown role, a bad e-mail and a malformed id", () => {
    reject(User, { ...owner, role: "superuser" }, ["role"]);
    reject(Role, "Owner");
    reject(User, { ...owner, email: "ada-at-acme" }, ["email"]);
    reject(User, { ...owner, tenant_ids: ["ten 1"] }, ["tenant_ids", 0]);
    reject(User, { ...owner, active: "true" }, ["active"]);
    reject(SignupCompleteResponse, { organization, owner }, ["default_tenant"]);
  });
  it("path params are service ids", () => {
    accept(UserPathParams, { org_id: "org_1", id: "usr_1" });
    reject(UserPathParams, { org_id: "org_1", id: "x".repeat(65) }, ["id"]);
  });
});

describe("SignupCompleteRequest", () => {
  const body = { company_name: "  Acme Corp ", first_name: "Ada", last_name: "Lovelace" };
  it("trims names and leaves job_title and slug optional", () => {
    expect(accept(SignupCompleteRequest, body)).toEqual({ company_name: "Acme Corp", first_name: "Ada", last_name: "Lovelace" });
    accept(SignupCompleteRequest, { ...body, job_title: "CTO", slug: "acme-42" });
  });
  it.each(["company_name", "first_name", "last_name"])("requires a non-blank %s", (field) => {
    reject(SignupCompleteRequest, { ...body, [field]: undefined }, [field]);
    reject(SignupCompleteRequest, { ...body, [field]: "   " }, [field]);
    reject(SignupCompleteRequest, { ...body, [field]: "x".repeat(201) }, [field]);
  });
  it("limits job_title to 200 characters", () => {
    reject(SignupCompleteRequest, { ...body, job_title: "x".repeat(201) }, ["job_title"]);
  });
  it.each(["ac", "-acme", "acme-", "Acme", "acme_corp", "acme corp", "a".repeat(64)])("rejects slug %j", (slug) => {
    reject(SignupCompleteRequest, { ...body, slug }, ["slug"]);
  });
  it.each(["abc", "acme-corp-2", "a".repeat(63), "a-b"])("accepts slug %j", (slug) => {
    accept(SignupCompleteRequest, { ...body, slug });
  });
});

describe("management requests", () => {
  it("organization and tenant updates", () => {
    accept(UpdateOrganizationRequest, {});
    accept(UpdateOrganizationRequest, { name: "Acme Inc", slug: "acme-inc" });
    reject(UpdateOrganizationRequest, { slug: "-acme" }, ["slug"]);
    accept(CreateTenantRequest, { name: "Production" });
    reject(CreateTenantRequest, { name: " " }, ["name"]);
    reject(CreateTenantRequest, {}, ["name"]);
    accept(UpdateTenantRequest, { archived: true });
    reject(UpdateTenantRequest, { archived: "yes" }, ["archived"]);
  });
  it("user invitations and updates", () => {
    accept(InviteUserRequest, { email: "bob@acme.example", role: "viewer", tenant_ids: ["ten_1"], name: "Bob" });
    reject(InviteUserRequest, { email: "bob@acme.example" }, ["role"]);
    reject(InviteUserRequest, { email: "bob", role: "member" }, ["email"]);
    expect(accept(UpdateUserRequest, { active: false, job_title: null })).toEqual({ active: false, job_title: null });
    reject(UpdateUserRequest, { role: "root" }, ["role"]);
    reject(UpdateUserRequest, { tenant_ids: "ten_1" }, ["tenant_ids"]);
  });
});

describe("settings", () => {
  it("OrganizationSettings fills the defaults", () => {
    expect(accept(OrganizationSettings, {})).toEqual({
      default_currency: "USD",
      rightsizing: {
        lookback_days: 14,
        cpu_target_percent: 70,
        memory_target_percent: 80,
        allow_architecture_change: false,
        savings_basis: "effective",
      },
      active_window_minutes: 15,
      anomaly_min_usd: 10,
      anomaly_min_percent: 30,
    });
  });
  it("UpdateSettingsRequest is a deep partial without defaults", () => {
    expect(accept(UpdateSettingsRequest, { rightsizing: { lookback_days: 30 } })).toEqual({
      rightsizing: { lookback_days: 30 },
    });
  });
  it("accepts lookback_days from 1 to 93", () => {
    for (const lookback_days of [1, 90, 93])
      expect(accept(UpdateSettingsRequest, { rightsizing: { lookback_days } })).toEqual({ rightsizing: { lookback_days } });
  });
  it.each([
    [{ rightsizing: { lookback_days: 94 } }, ["rightsizing", "lookback_days"]],
    [{ rightsizing: { lookback_days: 0 } }, ["rightsizing", "lookback_days"]],
    [{ rightsizing: { cpu_target_percent: 101 } }, ["rightsizing", "cpu_target_percent"]],
    [{ rightsizing: { memory_target_percent: 50.5 } }, ["rightsizing", "memory_target_percent"]],
    [{ active_window_minutes: 10081 }, ["active_window_minutes"]],
    [{ default_currency: "eur" }, ["default_currency"]],
  ])("rejects %j", (body, path) => {
    reject(UpdateSettingsRequest, body, path);
    reject(OrganizationSettings, body, path);
  });
});

describe("API keys", () => {
  const key = {
    id: "key_01JD8X3ZK2",
    name: "CI",
    role: "admin",
    prefix: "bl_3f9a",
    created_by: { user_id: "usr_01JD8X3ZK2", name: "Ada Lovelace" },
    created_at: "2026-11-21T22:47:22.123Z",
    last_used_at: null,
    revoked_at: null,
  };
  it("accepts a key and the one-time creation response", () => {
    accept(ApiKey, key);
    accept(CreateApiKeyResponse, { ...key, key: "bl_3f9a8c7d6e5f4a3b2c1d" });
    accept(CreateApiKeyRequest, { name: "CI", role: "member" });
  });
  it("rejects a missing secret, a missing revoked_at and a bad request", () => {
    reject(CreateApiKeyResponse, key, ["key"]);
    reject(CreateApiKeyResponse, { ...key, key: "sk_live_123" }, ["key"]);
    const { revoked_at: _omitted, ...withoutRevokedAt } = key;
    reject(ApiKey, withoutRevokedAt, ["revoked_at"]);
    const { created_by: _creator, ...withoutCreator } = key;
    reject(ApiKey, withoutCreator, ["created_by"]);
    accept(ApiKey, { ...key, created_by: null });
    reject(CreateApiKeyRequest, { name: "", role: "member" }, ["name"]);
    reject(CreateApiKeyRequest, { name: "x".repeat(201), role: "member" }, ["name"]);
    reject(CreateApiKeyRequest, { name: "CI", role: "god" }, ["role"]);
  });
  it("never allows owner keys, and scopes member/viewer keys with tenant_ids", () => {
    reject(CreateApiKeyRequest, { name: "CI", role: "owner" }, ["role"]);
    accept(CreateApiKeyRequest, { name: "CI", role: "viewer", tenant_ids: ["ten_1"] });
    reject(CreateApiKeyRequest, { name: "CI", role: "viewer", tenant_ids: ["ten 1"] }, ["tenant_ids", 0]);
    accept(ApiKey, { ...key, tenant_ids: ["ten_1"] });
    accept(ApiKeysPage, { items: [key], next_cursor: null });
  });
});

describe("path parameters and list queries", () => {
  it("accept well-formed ids and reject malformed ones", () => {
    accept(OrganizationPathParams, { org_id: "org_1" });
    reject(OrganizationPathParams, { org_id: "x".repeat(65) }, ["org_id"]);
    accept(TenantPathParams, { org_id: "org_1", tenant_id: "ten_1" });
    reject(TenantPathParams, { org_id: "org_1", tenant_id: "ten$1" }, ["tenant_id"]);
    reject(ApiKeyPathParams, { id: "" }, ["id"]);
  });
  it("parse include_archived case-insensitively with pagination defaults", () => {
    expect(accept(ListTenantsQuery, { include_archived: "TRUE" })).toEqual({ include_archived: true, limit: 100 });
    reject(ListTenantsQuery, { include_archived: "yes" }, ["include_archived"]);
  });
  it("describe the caller and pages of users and tenants", () => {
    accept(Me, { organization, user: owner, role: "owner", tenant_ids: [tenant.id], api_key_id: null });
    accept(Me, { organization, user: null, role: "viewer", tenant_ids: [], api_key_id: "key_1" });
    accept(UsersPage, { items: [owner], next_cursor: "abc" });
    accept(TenantsPage, { items: [tenant], next_cursor: null });
  });
});

describe("invitations", () => {
  const at = "2026-11-25T10:00:00.000Z";
  const later = "2026-12-02T10:00:00.000Z";
  const invitation = {
    id: "inv_01JD8X3ZK2",
    organization_id: organization.id,
    email: "bob@acme.example",
    role: "member",
    tenant_ids: [tenant.id],
    name: null,
    job_title: null,
    invited_by: { user_id: owner.id, name: owner.name },
    invited_by_api_key_id: null,
    status: "pending",
    created_at: at,
    expires_at: later,
    accepted_at: null,
    declined_at: null,
    revoked_at: null,
  };
  it("describe an invitation for the organization and for the invitee", () => {
    accept(InvitationsPage, { items: [invitation, { ...invitation, invited_by: null, invited_by_api_key_id: "key_1", status: "expired" }], next_cursor: null });
    reject(Invitation, { ...invitation, status: "lost" }, ["status"]);
    const received = {
      id: invitation.id,
      organization_id: organization.id,
      organization_name: "Acme Corp",
      role: "member",
      tenant_ids: [],
      invited_by: null,
      expires_at: later,
      created_at: at,
    };
    accept(ReceivedInvitationsPage, { items: [received], next_cursor: null });
    reject(ReceivedInvitation, { ...received, organization_name: undefined }, ["organization_name"]);
    accept(LeaveResponse, { organization_id: organization.id, user_id: owner.id });
  });
  it("validate invitation path ids", () => {
    accept(InvitationPathParams, { org_id: organization.id, id: invitation.id });
    reject(InvitationPathParams, { org_id: organization.id, id: "inv bad" }, ["id"]);
  });
});

describe("Page", () => {
  const Tenants = Page(Tenant);
  it("holds items and a nullable cursor", () => {
    accept(Tenants, { items: [tenant], next_cursor: null });
    accept(Tenants, { items: [], next_cursor: "eyJpZCI6MX0" });
  });
  it("requires next_cursor and valid items", () => {
    reject(Tenants, { items: [] }, ["next_cursor"]);
    reject(Tenants, { items: [{ id: "t" }], next_cursor: null }, ["items", 0, "name"]);
  });
  it("keeps the item type", () => {
    const page: z.infer<typeof Tenants> = { items: [tenant], next_cursor: null };
    expect(page.items[0].organization_id).toBe("org_01JD8X3ZK2");
  });
});
