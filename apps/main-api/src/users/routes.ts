import { Router } from "express";
import { InviteUserRequest, OrganizationPathParams, PaginationQuery, UpdateUserRequest, UserPathParams } from "@cloudcost/contracts";
import { parseOr400 } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { createInvitation, INVITATION_SENT } from "../invitations/service";
import { getUser, listUsers, updateUser } from "./service";

/** `/api/v1/organizations/:org_id/users` (behind authenticate). */
export function userRoutes(deps: AppDeps): Router {
  const router = Router({ mergeParams: true });

  router.get("/", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const query = parseOr400(PaginationQuery, req.query, "query");
    sendData(res, await listUsers(deps.prisma, principalOf(req), org_id, query), "Users of the organization.");
  });

  router.post("/", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(InviteUserRequest, req.body, "request body");
    sendData(res, await createInvitation(deps.prisma, principalOf(req), org_id, body), INVITATION_SENT, 201);
  });

  router.get("/:id", async (req, res) => {
    const { org_id, id } = parseOr400(UserPathParams, req.params, "path");
    sendData(res, await getUser(deps.prisma, principalOf(req), org_id, id), "User found.");
  });

  router.patch("/:id", async (req, res) => {
    const { org_id, id } = parseOr400(UserPathParams, req.params, "path");
    const body = parseOr400(UpdateUserRequest, req.body, "request body");
    const updated = await updateUser(deps.prisma, principalOf(req), org_id, id, body);
    deps.outbox.kick(); // a change of role or active state re-synced the user's keys to the pricing API
    sendData(res, updated, "User updated.");
  });

  return router;
}
