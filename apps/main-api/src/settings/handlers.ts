import type { mainApiSettingsRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { settingsRepository } from "./repository";
import { createSettingsService } from "./service";

/** `/api/v1/organizations/{org_id}/settings` (authorize checks the table's roles and that the caller belongs to the organization). */
export function settingsHandlers(deps: Pick<AppDeps, "prisma">): Handlers<keyof typeof mainApiSettingsRoutes> {
  const settings = createSettingsService({ db: deps.prisma, settings: settingsRepository });
  return {
    getSettings: async (_input, ctx) => success("Organization settings.", await settings.getSettings(ctx)),
    updateSettings: async ({ body }, ctx) => success("Organization settings updated.", await settings.updateSettings(ctx, body)),
  };
}
