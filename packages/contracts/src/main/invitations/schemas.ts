import { z } from "zod";
import { ServiceId, TimestampOutput } from "../../common.js";
import { OptionalText200, Page, Text200 } from "../fields.js";
import { Role } from "../users/schemas.js";

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
