/** The daily roll-up's dimensions (spend_daily's, in its column order), as read from a spend_lines row ('' for null). */
export const ROLLUP_DIMENSIONS = [
  "currency",
  "source",
  "charge_category",
  "charge_frequency",
  "pricing_category",
  "provider",
  "service_name",
  "service_category",
  "region",
  "sub_account_id",
  "model",
  "unpriced_reason",
] as const;
type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];
type ServiceRollupDimension = Exclude<RollupDimension, "region" | "sub_account_id" | "model">;
const inServiceRollup = (name: RollupDimension): name is ServiceRollupDimension => name !== "region" && name !== "sub_account_id" && name !== "model";

/** The dimensions of the coarser roll-up, spend_service_daily: spend_daily's without region, sub_account_id and model, in the same order. */
export const SERVICE_ROLLUP_DIMENSIONS: readonly ServiceRollupDimension[] = ROLLUP_DIMENSIONS.filter(inServiceRollup);
