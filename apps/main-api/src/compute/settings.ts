import type { SavingsBasis } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import { loadOrganizationSettings } from "../settings/repository";

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

/**
 * The organization's right-sizing settings and active window, read through the settings repository
 * (its settings row, created at sign-up; the defaults, the same as DEFAULT_COMPUTE_SETTINGS, when it is missing).
 */
export async function loadComputeSettings(prisma: Prisma, organizationId: string): Promise<ComputeSettings> {
  const { rightsizing, active_window_minutes } = await loadOrganizationSettings(prisma, organizationId);
  return {
    lookbackDays: rightsizing.lookback_days,
    cpuTargetPercent: rightsizing.cpu_target_percent,
    memoryTargetPercent: rightsizing.memory_target_percent,
    activeWindowMinutes: active_window_minutes,
    allowArchitectureChange: rightsizing.allow_architecture_change,
    savingsBasis: rightsizing.savings_basis,
  };
}
