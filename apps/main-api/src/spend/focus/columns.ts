/** The FOCUS versions an import accepts, oldest first. */
export const FOCUS_VERSIONS = ["1.0", "1.1", "1.2", "1.3"] as const;
export type FocusVersion = (typeof FOCUS_VERSIONS)[number];

/** Mandatory in FOCUS 1.0 to 1.2 (specification/columns/*.md, "Feature level: Mandatory"). */
export const MANDATORY_1_0 = [
  "BilledCost",
  "BillingAccountId",
  "BillingAccountName",
  "BillingCurrency",
  "BillingPeriodEnd",
  "BillingPeriodStart",
  "ChargeCategory",
  "ChargeClass",
  "ChargeDescription",
  "ChargePeriodEnd",
  "ChargePeriodStart",
  "ContractedCost",
  "EffectiveCost",
  "InvoiceIssuerName",
  "ListCost",
  "PricingQuantity",
  "PricingUnit",
  "ProviderName",
  "PublisherName",
  "ServiceCategory",
  "ServiceName",
] as const;

/**
 * FOCUS 1.3 deprecates ProviderName and PublisherName for ServiceProviderName and HostProviderName;
 * a 1.3 file must carry the new pair, the deprecated one is read when present.
 */
const MANDATORY_1_3 = [...MANDATORY_1_0.filter((c) => c !== "ProviderName" && c !== "PublisherName"), "ServiceProviderName", "HostProviderName"];

export const REQUIRED_COLUMNS: Record<FocusVersion, readonly string[]> = {
  "1.0": MANDATORY_1_0,
  "1.1": MANDATORY_1_0,
  "1.2": MANDATORY_1_0,
  "1.3": MANDATORY_1_3,
};

/** Columns first introduced by a version: their presence tells the version (a file need not carry them). */
const INTRODUCED: Record<Exclude<FocusVersion, "1.0">, readonly string[]> = {
  "1.1": [
    "CapacityReservationId",
    "CapacityReservationStatus",
    "CommitmentDiscountQuantity",
    "CommitmentDiscountUnit",
    "ServiceSubcategory",
    "SkuMeter",
    "SkuPriceDetails",
  ],
  "1.2": [
    "BillingAccountType",
    "SubAccountType",
    "InvoiceId",
    "PricingCurrency",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
  ],
  "1.3": [
    "ServiceProviderName",
    "HostProviderName",
    "AllocatedMethodId",
    "AllocatedMethodDetails",
    "AllocatedResourceId",
    "AllocatedResourceName",
    "AllocatedTags",
    "ContractApplied",
  ],
};

/** The newest version whose own columns appear in the header (1.0 when none does). */
export function detectVersion(columns: ReadonlySet<string>): FocusVersion {
  for (const version of ["1.3", "1.2", "1.1"] as const) {
    if (INTRODUCED[version].some((c) => columns.has(c))) return version;
  }
  return "1.0";
}

export const CHARGE_CATEGORIES = ["Usage", "Purchase", "Tax", "Credit", "Adjustment"] as const;
export type ChargeCategory = (typeof CHARGE_CATEGORIES)[number];

export const CHARGE_FREQUENCIES = ["One-Time", "Recurring", "Usage-Based"] as const;
export type { ChargeFrequency } from "../charge-frequency";

export const PRICING_CATEGORIES = ["Standard", "Dynamic", "Committed", "Other"] as const;
export type PricingCategory = (typeof PRICING_CATEGORIES)[number];
/** FOCUS 1.0's names of two pricing categories, renamed in 1.1. */
export const PRICING_CATEGORY_1_0: Readonly<Record<string, PricingCategory>> = { "On-Demand": "Standard", "Commitment-Based": "Committed" };

export const COMMITMENT_DISCOUNT_CATEGORIES = ["Spend", "Usage"] as const;
export const COMMITMENT_DISCOUNT_STATUSES = ["Used", "Unused"] as const;

export const SERVICE_CATEGORIES: ReadonlySet<string> = new Set([
  "AI and Machine Learning",
  "Analytics",
  "Business Applications",
  "Compute",
  "Databases",
  "Developer Tools",
  "Multicloud",
  "Identity",
  "Integration",
  "Internet of Things",
  "Management and Governance",
  "Media",
  "Migration",
  "Mobile",
  "Networking",
  "Security",
  "Storage",
  "Web",
  "Other",
]);
