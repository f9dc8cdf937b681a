import type { OrganizationSettings, UpdateSettingsRequest } from "@cloudcost/contracts";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import type { SettingsRepository } from "./repository";

export type SettingsService = ReturnType<typeof createSettingsService>;

/** The settings of the organization named by `{org_id}` (the defaults until changed). */
export function createSettingsService({ db, settings }: { db: Prisma; settings: SettingsRepository }) {
  return {
    getSettings: ({ organization: { id: organizationId } }: OrganizationContext): Promise<OrganizationSettings> =>
      settings.loadOrganizationSettings(db, organizationId),
    updateSettings: ({ organization: { id: organizationId } }: OrganizationContext, body: UpdateSettingsRequest): Promise<OrganizationSettings> =>
      settings.updateOrganizationSettings(db, organizationId, body),
  };
}
