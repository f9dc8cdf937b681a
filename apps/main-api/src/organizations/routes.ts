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
import { parseOr400 } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { createTenant, getTenant, listTenants, updateTenant } from "../tenants/service";
import { invitationRoutes } from "../invitations/routes";
import { userRoutes } from "../users/routes";
import { getOrganization, getSettings, updateOrganization, updateSettings } from "./service";

/** `/api/v1/organizations/:org_id/...` (behind authenticate): the organization, settings, tenants, users and invitations. */
export function organizationRoutes(deps: AppDeps): Router {
  const router = Router();
  const { prisma } = deps;

  router.get("/:org_id", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    sendData(res, await getOrganization(prisma, principalOf(req), org_id), "Organization found.");
  });

  router.patch("/:org_id", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(UpdateOrganizationRequest, req.body, "request body");
    sendData(res, await updateOrganization(prisma, principalOf(req), org_id, body), "Organization updated.");
  });

  router.get("/:org_id/settings", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    sendData(res, await getSettings(prisma, principalOf(req), org_id), "Organization settings.");
  });

  router.patch("/:org_id/settings", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(UpdateSettingsRequest, req.body, "request body");
    sendData(res, await updateSettings(prisma, principalOf(req), org_id, body), "Organization settings updated.");
  });

  router.get("/:org_id/tenants", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const query = parseOr400(ListTenantsQuery, req.query, "query");
    sendData(res, await listTenants(prisma, principalOf(req), org_id, query), "Tenants of the organization.");
  });

  router.post("/:org_id/tenants", async (req, res) => {
    const { org_id } = parseOr400(OrganizationPathParams, req.params, "path");
    const body = parseOr400(CreateTenantRequest, req.body, "request body");
    sendData(res, await createTenant(prisma, principalOf(req), org_id, body), "Tenant created.", 201);
  });

  router.get("/:org_id/tenants/:tenant_id", async (req, res) => {
    const { org_id, tenant_id } = parseOr400(TenantPathParams, req.params, "path");
    sendData(res, await getTenant(prisma, principalOf(req), org_id, tenant_id), "Tenant found.");
  });

  router.patch("/:org_id/tenants/:tenant_id", async (req, res) => {
    const { org_id, tenant_id } = parseOr400(TenantPathParams, req.params, "path");
    const body = parseOr400(UpdateTenantRequest, req.body, "request body");
    sendData(res, await updateTenant(prisma, principalOf(req), org_id, tenant_id, body), "Tenant updated.");
  });

  router.use("/:org_id/users", userRoutes(deps));
  router.use("/:org_id/invitations", invitationRoutes(deps));
  return router;
}
