import { Router } from "express";
import type { Me } from "@cloudcost/contracts";
import type { AppDeps } from "../app";
import { principalOf } from "../auth/middleware";
import { sendData } from "../http/envelope";
import { leaveOrganization } from "./leave";
import { toOrganization, toUser, withTenantIds } from "./serialize";

/** `GET /api/v1/me`: who the caller is (how a client finds its organization id after sign-in); `POST /api/v1/me/leave`. */
export function meRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const principal = principalOf(req);
    const organizationId = principal.organizationId;
    const [organization, user] = await Promise.all([
      deps.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } }),
      principal.userId
        ? deps.prisma.user.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id: principal.userId } }, include: withTenantIds })
        : null,
    ]);
    const me: Me = {
      organization: toOrganization(organization),
      user: user ? toUser(user) : null,
      role: principal.role,
      tenant_ids: principal.tenantIds,
      api_key_id: principal.apiKeyId,
    };
    sendData(res, me, "The authenticated caller.");
  });
  router.post("/leave", async (req, res) => {
    const left = await leaveOrganization(deps.prisma, principalOf(req));
    deps.outbox?.kick(); // the caller's keys, suspended, reach the pricing API now
    sendData(res, left, "You left the organization: your user there is deactivated.");
  });
  return router;
}
