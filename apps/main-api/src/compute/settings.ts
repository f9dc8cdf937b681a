import type { SavingsBasis } from "@cloudcost/contracts";
import type { Prisma } from "../db";

/** The organization settings the compute analysis and the `active` filter depend on. */
export interface ComputeSettings {
  lookbackDays: number;
  cpuTargetPercent: number;
  memoryTargetPercent: number;
  activeWindowMinutes: number;
  allowArchitectureChange: boolean;
  savingsBasis: SavingsBasis;
}

export const DEFAULT_COMPUTE_SETTINGS: ComputeSettings = {
  lookbackDays: 14,
  cpuTargetPercent: 70,
  memoryTargetPercent: 80,
  activeWindowMinutes: 15,
  allowArchitectureChange: false,
  savingsBasis: "effective",
};

/** The organization's settings row (created at sign-up); the defaults when it is missing. */
export async function loadComputeSettings(prisma: Prisma, organizationId: string): Promise<ComputeSettings> {
  const row = await prisma.organizationSettings.findUnique({ where: { organizationId } });
  if (!row) return DEFAULT_COMPUTE_SETTINGS;
  return {
    lookbackDays: row.rightsizingLookbackDays,
    cpuTargetPercent: row.rightsizingCpuTargetPercent,
    memoryTargetPercent: row.rightsizingMemTargetPercent,
    activeWindowMinutes: row.activeWindowMinutes,
    allowArchitectureChange: row.rightsizingAllowArchitectureChange,
    savingsBasis: row.rightsizingSavingsBasis === "list" ? "list" : "effective",
  };
}
