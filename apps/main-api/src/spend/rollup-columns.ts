/** The dimensions of the coarser roll-up, spend_service_daily (spend_daily's without model, region and sub_account_id). */
export const SERVICE_ROLLUP_DIMENSIONS = [
  "currency",
  "source",
  "charge_category",
  "charge_frequency",
  "pricing_category",
  "provider",
  "service_name",
  "service_category",
  "unpriced_reason",
] as const;
