import { OrganizationSettings as SettingsSchema, type OrganizationSettings, type UpdateSettingsRequest } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Tx } from "../transactions";
import type { OrganizationSettings as SettingsRow } from "../generated/prisma/client";

const DEFAULTS: OrganizationSettings = SettingsSchema.parse({});

const toSettings = (row: SettingsRow | null): OrganizationSettings =>
  row
    ? {
        default_currency: row.defaultCurrency,
        rightsizing: {
          lookback_days: row.rightsizingLookbackDays,
          cpu_target_percent: row.rightsizingCpuTargetPercent,
          memory_target_percent: row.rightsizingMemTargetPercent,
          allow_architecture_change: row.rightsizingAllowArchitectureChange,
          savings_basis: row.rightsizingSavingsBasis === "list" ? "list" : "effective",
        },
        active_window_minutes: row.activeWindowMinutes,
        anomaly_min_usd: row.anomalyMinUsd.toNumber(),
        anomaly_min_percent: row.anomalyMinPercent.toNumber(),
      }
    : DEFAULTS;

/** The settings row of a new organization, with the defaults. */
export async function insertOrganizationSettings(tx: Tx, organizationId: string): Promise<void> {
  await tx.organizationSettings.create({ data: { organizationId } });
}

/** An organization's settings (the defaults when it has no row); the right-sizing engine reads these. */
export async function loadOrganizationSettings(prisma: Prisma, organizationId: string): Promise<OrganizationSettings> {
  return toSettings(await prisma.organizationSettings.findUnique({ where: { organizationId } }));
}

/** Changes only the fields sent (an upsert, so concurrent updates never duplicate the row). */
export async function updateOrganizationSettings(prisma: Prisma, organizationId: string, body: UpdateSettingsRequest): Promise<OrganizationSettings> {
  const data = {
    defaultCurrency: body.default_currency,
    rightsizingLookbackDays: body.rightsizing?.lookback_days,
    rightsizingCpuTargetPercent: body.rightsizing?.cpu_target_percent,
    rightsizingMemTargetPercent: body.rightsizing?.memory_target_percent,
    rightsizingAllowArchitectureChange: body.rightsizing?.allow_architecture_change,
    rightsizingSavingsBasis: body.rightsizing?.savings_basis,
    activeWindowMinutes: body.active_window_minutes,
    anomalyMinUsd: body.anomaly_min_usd,
    anomalyMinPercent: body.anomaly_min_percent,
  };
  const row = await prisma.organizationSettings.upsert({ where: { organizationId }, create: { organizationId, ...data }, update: data });
  return toSettings(row);
}

/** What the settings service reads and writes. */
export const settingsRepository = { loadOrganizationSettings, updateOrganizationSettings, insertOrganizationSettings };
export type SettingsRepository = typeof settingsRepository;
