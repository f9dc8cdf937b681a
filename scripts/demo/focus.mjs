// The demo organization's cloud bill: a synthetic FOCUS 1.2 CSV of 60 complete days (relative to
// today, deterministic), allocated to the two tenants by sub-account, one sub-account unallocated.
const DAY_MS = 86_400_000;
const BILLING_ACCOUNT = "123456789012";
export const SUB_ACCOUNTS = { production: "111111111111", staging: "222222222222", sandbox: "333333333333" };
/** The day (days before today) of the Production EC2 spike the anomaly detection finds. */
export const SPIKE_DAYS_AGO = 3;

const SERVICES = [
  { name: "Amazon EC2", category: "Compute", sku: "BoxUsage:m5.xlarge", unit: "Hours", region: "us-east-1", resource: "i-0a1b2c3d4e5f" },
  { name: "Amazon RDS", category: "Databases", sku: "InstanceUsage:db.r6g.large", unit: "Hours", region: "us-east-1", resource: "db-orders" },
  { name: "Amazon S3", category: "Storage", sku: "TimedStorage-ByteHrs", unit: "GB-Mo", region: "us-east-1", resource: "demo-assets" },
];
/** Daily base cost (USD) of each service per sub-account: small wobbles (at most 3 %) stay far under the anomaly floors. */
const BASE = {
  production: [120, 45, 8],
  staging: [30, 12, 3],
  sandbox: [9, 0, 2],
};

const COLUMNS = [
  "BillingAccountId",
  "BillingAccountName",
  "BillingAccountType",
  "BillingCurrency",
  "BillingPeriodStart",
  "BillingPeriodEnd",
  "InvoiceId",
  "InvoiceIssuerName",
  "ProviderName",
  "PublisherName",
  "SubAccountId",
  "SubAccountName",
  "SubAccountType",
  "ChargeCategory",
  "ChargeClass",
  "ChargeDescription",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ServiceCategory",
  "ServiceName",
  "RegionId",
  "ResourceId",
  "ResourceName",
  "SkuId",
  "SkuPriceId",
  "PricingQuantity",
  "PricingUnit",
  "ConsumedQuantity",
  "ConsumedUnit",
  "ListCost",
  "ContractedCost",
  "BilledCost",
  "EffectiveCost",
  "Tags",
];

const quote = (value) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const cents = (usd) => (Math.round(usd * 100) / 100).toFixed(2);

/** The CSV text: one row per (day, sub-account, service), the 60 complete days before `now`. */
export function demoFocusCsv(now) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const rows = [COLUMNS.join(",")];
  for (let daysAgo = 60; daysAgo >= 1; daysAgo--) {
    const start = new Date(today - daysAgo * DAY_MS);
    const periodStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1));
    const periodEnd = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    Object.entries(BASE).forEach(([account, bases], a) => {
      SERVICES.forEach((service, s) => {
        if (bases[s] === 0) return;
        // The wobble depends on the day's date, so reloading on the same day gives the same bill.
        const day = Math.floor(start.getTime() / DAY_MS);
        let cost = bases[s] * (1 + 0.03 * Math.sin(day * 1.7 + a * 2 + s));
        if (account === "production" && s === 0 && daysAgo === SPIKE_DAYS_AGO) cost = bases[s] * 3;
        const billed = cents(cost);
        const quantity = service.unit === "Hours" ? "24" : cents(cost / 0.023);
        const row = {
          BillingAccountId: BILLING_ACCOUNT,
          BillingAccountName: "Demo Corp AWS",
          BillingAccountType: "Billing Account",
          BillingCurrency: "USD",
          BillingPeriodStart: periodStart.toISOString(),
          BillingPeriodEnd: periodEnd.toISOString(),
          InvoiceId: "",
          InvoiceIssuerName: "Amazon Web Services, Inc.",
          ProviderName: "AWS",
          PublisherName: "Amazon Web Services, Inc.",
          SubAccountId: SUB_ACCOUNTS[account],
          SubAccountName: `demo-${account}`,
          SubAccountType: "Account",
          ChargeCategory: "Usage",
          ChargeClass: "",
          ChargeDescription: `${service.name} ${service.sku}`,
          ChargePeriodStart: start.toISOString(),
          ChargePeriodEnd: new Date(start.getTime() + DAY_MS).toISOString(),
          ServiceCategory: service.category,
          ServiceName: service.name,
          RegionId: service.region,
          ResourceId: `${service.resource}-${account}`,
          ResourceName: `${service.resource}-${account}`,
          SkuId: service.sku,
          SkuPriceId: `${service.sku}:OnDemand`,
          PricingQuantity: quantity,
          PricingUnit: service.unit,
          ConsumedQuantity: quantity,
          ConsumedUnit: service.unit,
          ListCost: billed,
          ContractedCost: billed,
          BilledCost: billed,
          EffectiveCost: billed,
          Tags: JSON.stringify({ env: account, team: s === 0 ? "platform" : "data" }),
        };
        rows.push(COLUMNS.map((column) => quote(row[column])).join(","));
      });
    });
  }
  return `${rows.join("\n")}\n`;
}

/**
 * Allocation rules (Production and Staging by sub-account; the sandbox account stays unallocated),
 * then the bill imported as `text/csv` through the public import route.
 */
export async function loadFocus({ main, org, tenants, now, log }) {
  await main.putAllocationRules({
    params: { org_id: org },
    body: {
      rules: [
        { tenant_id: tenants.production, sub_account_ids: [SUB_ACCOUNTS.production] },
        { tenant_id: tenants.staging, sub_account_ids: [SUB_ACCOUNTS.staging] },
      ],
    },
  });
  const { import: imported } = await main.createSpendImport({
    params: { org_id: org },
    query: { file_name: "demo-aws-focus-1.2.csv" },
    body: demoFocusCsv(now),
    contentType: "text/csv",
  });
  log(`  Cloud bill: FOCUS 1.2 import of ${imported.rows} rows (${imported.allocated_rows} allocated, ${imported.unallocated_rows} unallocated)`);
  return imported;
}
