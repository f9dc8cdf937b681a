import { z } from "zod";
import { Currency } from "../../common.js";

// The decided range (docs/api.md, Organization and settings).
const LookbackDays = z.number().int().min(1).max(93);
const TargetPercent = z.number().int().min(1).max(100);
const ActiveWindowMinutes = z.number().int().min(1).max(10080);
export const SavingsBasis = z
  .enum(["effective", "list"])
  .meta({ id: "SavingsBasis", description: "`effective`: the organization's negotiated prices where they apply; `list`: catalog list prices only." });
export type SavingsBasis = z.infer<typeof SavingsBasis>;

const AnomalyMinUsd = z
  .number()
  .min(0)
  .max(1_000_000_000)
  .multipleOf(0.0001)
  .meta({ description: "A spend anomaly exceeds its expected daily cost by more than this many units of its currency (USD for USD spend; default 10)." });
const AnomalyMinPercent = z.number().min(0).max(10_000).multipleOf(0.0001).meta({ description: "... and by more than this percent of it (default 30)." });

export const OrganizationSettings = z
  .object({
    default_currency: Currency.default("USD"),
    rightsizing: z
      .object({
        lookback_days: LookbackDays.default(14),
        cpu_target_percent: TargetPercent.default(70),
        memory_target_percent: TargetPercent.default(80),
        allow_architecture_change: z.boolean().default(false),
        savings_basis: SavingsBasis.default("effective"),
      })
      .prefault({}),
    active_window_minutes: ActiveWindowMinutes.default(15),
    anomaly_min_usd: AnomalyMinUsd.default(10),
    anomaly_min_percent: AnomalyMinPercent.default(30),
  })
  .meta({ id: "OrganizationSettings", description: "Organization settings; parsing `{}` yields the defaults." });
export type OrganizationSettings = z.output<typeof OrganizationSettings>;

// Separate from OrganizationSettings on purpose: defaults here would reset fields a client did not send.
export const UpdateSettingsRequest = z
  .object({
    default_currency: Currency.optional(),
    rightsizing: z
      .object({
        lookback_days: LookbackDays.optional(),
        cpu_target_percent: TargetPercent.optional(),
        memory_target_percent: TargetPercent.optional(),
        allow_architecture_change: z.boolean().optional(),
        savings_basis: SavingsBasis.optional(),
      })
      .optional(),
    active_window_minutes: ActiveWindowMinutes.optional(),
    anomaly_min_usd: AnomalyMinUsd.optional(),
    anomaly_min_percent: AnomalyMinPercent.optional(),
  })
  .meta({ id: "UpdateSettingsRequest", description: "Settings to change; omitted fields keep their value." });
export type UpdateSettingsRequest = z.output<typeof UpdateSettingsRequest>;
