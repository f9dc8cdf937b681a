import type { Prisma } from "../db";

/** The organization settings the compute analysis and the `active` filter depend on. */
export interface ComputeSettings {
  lookbackDays: number;
  cpuTargetPercent: number;
  memoryTargetPercent: number;
  activeWindowMinutes: number;
}

export const DEFAULT_COMPUTE_SETTINGS: ComputeSettings = {
  lookbackDays: 14,
  cpuTargetPercent: 70,
  memoryTargetPercent: 80,
  activeWindowMinutes: 15,
};

export async function loadComputeSettings(_prisma: Prisma, _organizationId: string): Promise<ComputeSettings> {
  return DEFAULT_COMPUTE_SETTINGS;
}
