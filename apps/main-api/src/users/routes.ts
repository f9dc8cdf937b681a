import { Router } from "express";
import { InviteUserRequest, OrganizationPathParams, PaginationQuery, UpdateUserRequest, UserPathParams } from "@cloudcost/contracts";
import { forbidden, parseOr400 } from "@cloudcost/http";
import type { AppDeps } from "../app";
import { isManager } from "../auth/principal";
import { sendData } from "../http/envelope";
import { managerOf, memberOf } from "../organizations/access";
import { createInvitation, INVITATION_SENT } from "../invitations/service";
import { getUser, listUsers, updateUser } from "./service";

/** `/api/v1/organizations/:org_id/users` (behind authenticate). */
export function userRoutes(deps: AppDeps): Router {
  const router = Router({ mergeParams: true });

  router.get("/", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const query = parseOr400(PaginationQuery, req.query, "query");
    memberOf(req, org_id);
    sendData(res, await listUsers(deps.prisma, org_id, query), "Users of the organization.");
  });

  router.post("/", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(InviteUserRequest, req.body, "request body");
    const caller = managerOf(req, org_id);
    sendData(res, await createInvitation(deps.prisma, caller, body), INVITATION_SENT, 201);
  });

  router.get("/:id", async (req, res) => {
    const { org_id, id } = parseOr400(UserPathParams, req.params, "path");
    memberOf(req, org_id);
    sendData(res, await getUser(deps.prisma, org_id, id), "User found.");
  });

  router.patch("/:id", async (req, res) => {
    const { org_id, id } = parseOr400(UserPathParams, req.params, "path");
    const body = parseOr400(UpdateUserRequest, req.body, "request body");
    const caller = memberOf(req, org_id);
    // Everyone but viewers may edit their own name and job title; everything else is for managers.
    const ownProfileOnly = caller.userId === id && body.role === undefined && body.tenant_ids === undefined && body.active === undefined;
    if (!isManager(caller.role) && !(ownProfileOnly && caller.role !== "viewer")) {
      throw forbidden(`Only owners and admins can change users; the caller is ${caller.role}.`);
    }
    const updated = await updateUser(deps.prisma, caller, id, body);
    deps.outbox?.kick(); // a change of role or active state re-synced the user's keys to the pricing API
    sendData(res, updated, "User updated.");
  });

  return router;
}
