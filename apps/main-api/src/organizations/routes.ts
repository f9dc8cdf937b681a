import { Router } from "express";
import {
  CreateTenantRequest,
  ListTenantsQuery,
  OrganizationPathParams,
  TenantPathParams,
  UpdateOrganizationRequest,
  UpdateSettingsRequest,
  UpdateTenantRequest,
} from "@cloudcost/contracts";
import { conflict, forbidden, parseOr400 } from "@cloudcost/http";
import type { AppDeps } from "../app";
import { sendData } from "../http/envelope";
import { loadOrganizationSettings, updateOrganizationSettings } from "../settings/repository";
import { createTenant, getTenant, listTenants, updateTenant } from "../tenants/service";
import { isUniqueViolation } from "../transactions";
import { invitationRoutes } from "../invitations/routes";
import { userRoutes } from "../users/routes";
import { managerOf, memberOf } from "./access";
import { toOrganization } from "./serialize";

/** `/api/v1/organizations/:org_id/...` (behind authenticate): the organization, settings, tenants, users and invitations. */
export function organizationRoutes(deps: AppDeps): Router {
  const router = Router();
  const { prisma } = deps;

  router.get("/:org_id", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    memberOf(req, org_id);
    const row = await prisma.organization.findUnique({ where: { id: org_id } });
    if (!row) throw forbidden(`The caller is not a member of organization ${org_id}.`);
    sendData(res, toOrganization(row), "Organization found.");
  });

  router.patch("/:org_id", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(UpdateOrganizationRequest, req.body, "request body");
    managerOf(req, org_id);
    try {
      const row = await prisma.organization.update({ where: { id: org_id }, data: { name: body.name, slug: body.slug } });
      sendData(res, toOrganization(row), "Organization updated.");
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`The slug '${body.slug}' is already taken.`);
      throw err;
    }
  });

  router.get("/:org_id/settings", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    memberOf(req, org_id);
    sendData(res, await loadOrganizationSettings(prisma, org_id), "Organization settings.");
  });

  router.patch("/:org_id/settings", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(UpdateSettingsRequest, req.body, "request body");
    managerOf(req, org_id);
    sendData(res, await updateOrganizationSettings(prisma, org_id, body), "Organization settings updated.");
  });

  router.get("/:org_id/tenants", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const query = parseOr400(ListTenantsQuery, req.query, "query");
    const caller = memberOf(req, org_id);
    sendData(res, await listTenants(prisma, caller, query), "Tenants of the organization.");
  });

  router.post("/:org_id/tenants", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(CreateTenantRequest, req.body, "request body");
    managerOf(req, org_id);
    sendData(res, await createTenant(prisma, org_id, body), "Tenant created.", 201);
  });

  router.get("/:org_id/tenants/:tenant_id", async (req, res) => {
    const { org_id, tenant_id } = parseOr400(TenantPathParams, req.params, "path");
    const caller = memberOf(req, org_id);
    sendData(res, await getTenant(prisma, caller, tenant_id), "Tenant found.");
  });

  router.patch("/:org_id/tenants/:tenant_id", async (req, res) => {
    const { org_id, tenant_id } = parseOr400(TenantPathParams, req.params, "path");
    const body = parseOr400(UpdateTenantRequest, req.body, "request body");
    managerOf(req, org_id);
    sendData(res, await updateTenant(prisma, org_id, tenant_id, body), "Tenant updated.");
  });

  router.use("/:org_id/users", userRoutes(deps));
  router.use("/:org_id/invitations", invitationRoutes(deps));
  return router;
}
