import { Router, type Request } from "express";
import { InvitationPathParams, InviteUserRequest, OrganizationPathParams, PaginationQuery, ReceivedInvitationPathParams } from "@cloudcost/contracts";
import { forbidden, parseOr400 } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import type { VerifiedIdentity } from "../auth/token-verifier";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { acceptInvitation, declineInvitation, listReceivedInvitations } from "./invitee-service";
import { createInvitation, INVITATION_SENT, listInvitations, revokeInvitation } from "./service";

/** `/api/v1/organizations/:org_id/invitations` (behind authenticate): owners and admins manage invitations. */
export function invitationRoutes(deps: AppDeps): Router {
  const router = Router({ mergeParams: true });

  router.get("/", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const query = parseOr400(PaginationQuery, req.query, "query");
    sendData(res, await listInvitations(deps.prisma, principalOf(req), org_id, query), "Invitations of the organization.");
  });

  router.post("/", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(InviteUserRequest, req.body, "request body");
    sendData(res, await createInvitation(deps.prisma, principalOf(req), org_id, body), INVITATION_SENT, 201);
  });

  router.delete("/:id", async (req, res) => {
    const { org_id, id } = parseOr400(InvitationPathParams, req.params, "path");
    await revokeInvitation(deps.prisma, principalOf(req), org_id, id);
    res.status(204).end();
  });

  return router;
}

/** The identity-provider identity of the caller: invitations are answered by people, not keys. */
function identityOf(req: Request): VerifiedIdentity {
  if (!req.identity) throw forbidden("API keys cannot list or answer invitations: use the invitee's identity-provider token.");
  return req.identity;
}

/** `/api/v1/invitations` (behind authenticate; no principal needed): the caller's own invitations. */
export function receivedInvitationRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const query = parseOr400(PaginationQuery, req.query, "query");
    sendData(res, await listReceivedInvitations(deps.prisma, identityOf(req), query), "Pending invitations for your verified e-mail address.");
  });

  router.post("/:id/accept", async (req, res) => {
    const { id } = parseOr400(ReceivedInvitationPathParams, req.params, "path");
    const user = await acceptInvitation(deps.prisma, identityOf(req), id);
    deps.outbox.kick(); // a returning user's keys are re-synced to the pricing API
    sendData(res, user, "Invitation accepted: you are now a user of the organization.");
  });

  router.post("/:id/decline", async (req, res) => {
    const { id } = parseOr400(ReceivedInvitationPathParams, req.params, "path");
    await declineInvitation(deps.prisma, identityOf(req), id);
    res.status(204).end();
  });

  return router;
}
