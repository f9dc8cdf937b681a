import { gzipSync } from "node:zlib";
import { RESIZED, resizedBillDays } from "./history.mjs";

// The demo organization's cloud bill: a synthetic FOCUS 1.2 export of 60 complete days (relative to
// today, deterministic), allocated to the two tenants by sub-account, one sub-account unallocated.
// The accounts' EC2 is partly covered by a Compute Savings Plan Production pays for (its hourly fee,
// the covered usage at the plan's rate and the commitment it left unused each day), a weekly batch job on Sundays and a
// monthly support fee on the 1st; the payer account carries the tax. AWS Data Exports deliver it as two files and a manifest: so does the demo.
const DAY_MS = 86_400_000;
const BILLING_ACCOUNT = "123456789012";
export const SUB_ACCOUNTS = { production: "111111111111", staging: "222222222222", sandbox: "333333333333" };
/** The first of the two days (days before today) of the Production EC2 spike the anomaly detection finds, as one range. */
export const SPIKE_DAYS_AGO = 3;
const SPIKE_DAYS = 2;
/** Production's weekly batch job: this much more on-demand EC2 every Sunday (a quarter of a usual day: under the 30 % floor, so never an anomaly; the forecast expects it on Sundays). */
const WEEKLY_JOB = 12;

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

/**
 * The Savings Plan (shared by the linked accounts, paid by Production): the share of each account's
 * usual EC2 list cost it covers (together about 60 % of the EC2 usage; the spike and the weekly job
 * stay on demand), its rate (1 - its 28 % discount), and how much of the commitment that uses.
 */
const PLAN = {
  id: `arn:aws:savingsplans::${"123456789012"}:savingsplan/3c6f8e2a-demo`,
  coveredShare: { production: 0.6, staging: 0.8, sandbox: 0.6 },
  rate: 0.72,
  utilization: 0.85,
};
const SUPPORT_FEE = 100;
const TAX_RATE = 0.08;

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
  "ChargeFrequency",
  "PricingCategory",
  "ListUnitPrice",
  "ContractedUnitPrice",
  "ResourceType",
  "CommitmentDiscountId",
  "CommitmentDiscountCategory",
  "CommitmentDiscountType",
  "CommitmentDiscountStatus",
  "CommitmentDiscountQuantity",
  "CommitmentDiscountUnit",
];

const quote = (value) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const cents = (usd) => (Math.round(usd * 100) / 100).toFixed(2);

const RESOURCE_TYPE = { Compute: "Virtual Machine", Databases: "Database", Storage: "Bucket" };

/** The rows of the 60 complete days before `now`: per (day, sub-account, service), the plan's daily lines, and per month the payer's fee and tax. */
function demoFocusRows(now) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const rows = [];
  const billed = new Map();
  const base = (start, account) => {
    const periodStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1));
    const periodEnd = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    return {
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
      SubAccountId: SUB_ACCOUNTS[account] ?? BILLING_ACCOUNT,
      SubAccountName: SUB_ACCOUNTS[account] ? `demo-${account}` : "payer",
      SubAccountType: "Account",
      ChargeClass: "",
      ChargePeriodStart: start.toISOString(),
      ChargePeriodEnd: new Date(start.getTime() + DAY_MS).toISOString(),
      ChargeFrequency: "Usage-Based",
      PricingCategory: "Standard",
    };
  };
  const add = (row) => {
    rows.push(row);
    const month = row.BillingPeriodStart;
    billed.set(month, (billed.get(month) ?? 0) + Number(row.BilledCost));
  };
  for (let daysAgo = 60; daysAgo >= 1; daysAgo--) {
    const start = new Date(today - daysAgo * DAY_MS);
    let usedToday = 0;
    Object.entries(BASE).forEach(([account, bases], a) => {
      SERVICES.forEach((service, s) => {
        if (bases[s] === 0) return;
        // The wobble depends on the day's date, so reloading on the same day gives the same bill.
        const day = Math.floor(start.getTime() / DAY_MS);
        let cost = bases[s] * (1 + 0.03 * Math.sin(day * 1.7 + a * 2 + s));
        if (account === "production" && s === 0 && start.getUTCDay() === 0) cost += WEEKLY_JOB;
        if (account === "production" && s === 0 && daysAgo <= SPIKE_DAYS_AGO && daysAgo > SPIKE_DAYS_AGO - SPIKE_DAYS) cost = bases[s] * 3;
        const usage = {
          ...base(start, account),
          ChargeCategory: "Usage",
          ChargeDescription: `${service.name} ${service.sku}`,
          ServiceCategory: service.category,
          ServiceName: service.name,
          RegionId: service.region,
          ResourceId: `${service.resource}-${account}`,
          ResourceName: `${service.resource}-${account}`,
          ResourceType: RESOURCE_TYPE[service.category],
          SkuId: service.sku,
          SkuPriceId: `${service.sku}:OnDemand`,
          PricingUnit: service.unit,
          ConsumedUnit: service.unit,
          Tags: JSON.stringify({ env: account, team: s === 0 ? "platform" : "data" }),
        };
        const line = (list, extra = {}) => {
          const quantity = service.unit === "Hours" ? cents((24 * list) / cost) : cents(list / 0.023);
          return {
            ...usage,
            PricingQuantity: quantity,
            ConsumedQuantity: quantity,
            ListUnitPrice: service.unit === "Hours" ? (cost / 24).toFixed(6) : "0.023",
            ContractedUnitPrice: service.unit === "Hours" ? (cost / 24).toFixed(6) : "0.023",
            ListCost: cents(list),
            ContractedCost: cents(list),
            BilledCost: cents(list),
            EffectiveCost: cents(list),
            ...extra,
          };
        };
        if (s !== 0) {
          add(line(cost));
          return;
        }
        // EC2: the plan covers a steady share of each account's usual cost at the plan's rate; the
        // rest (the spike and the weekly job included) is on demand.
        const covered = bases[s] * PLAN.coveredShare[account];
        usedToday += covered * PLAN.rate;
        add(
          line(covered, {
            PricingCategory: "Committed",
            SkuPriceId: `${service.sku}:ComputeSavingsPlans`,
            BilledCost: "0.00",
            EffectiveCost: cents(covered * PLAN.rate),
            CommitmentDiscountId: PLAN.id,
            CommitmentDiscountCategory: "Spend",
            CommitmentDiscountType: "Compute Savings Plan",
            CommitmentDiscountStatus: "Used",
            CommitmentDiscountQuantity: cents(covered * PLAN.rate),
            CommitmentDiscountUnit: "USD",
          }),
        );
        add(line(cost - covered));
      });
    });
    {
      // The plan's fee for the day (on Production, which bought it) and the part of the commitment no usage took.
      const commitment = usedToday / PLAN.utilization;
      const plan = {
        ...base(start, "production"),
        ServiceCategory: "Compute",
        ServiceName: "Savings Plans for AWS Compute usage",
        RegionId: "",
        PricingCategory: "Committed",
        CommitmentDiscountId: PLAN.id,
        CommitmentDiscountCategory: "Spend",
        CommitmentDiscountType: "Compute Savings Plan",
        CommitmentDiscountUnit: "USD",
        Tags: JSON.stringify({ env: "production" }),
      };
      add({
        ...plan,
        ChargeCategory: "Purchase",
        ChargeFrequency: "Recurring",
        ChargeDescription: "Compute Savings Plan, 1 year, no upfront: hourly fee",
        PricingQuantity: "24",
        PricingUnit: "Hours",
        ListCost: cents(commitment),
        ContractedCost: cents(commitment),
        BilledCost: cents(commitment),
        EffectiveCost: "0.00",
      });
      add({
        ...plan,
        ChargeCategory: "Usage",
        ChargeDescription: "Savings Plan commitment not used",
        PricingQuantity: cents(commitment - usedToday),
        PricingUnit: "USD",
        ListCost: "0.00",
        ContractedCost: "0.00",
        BilledCost: "0.00",
        EffectiveCost: cents(commitment - usedToday),
        CommitmentDiscountStatus: "Unused",
        CommitmentDiscountQuantity: cents(commitment - usedToday),
      });
    }
  }
  // The VM Production downsized on the analysis' advice (history.mjs): a day's line at each price.
  for (const { daysAgo, type, hourly, listHourly } of resizedBillDays()) {
    const start = new Date(today - daysAgo * DAY_MS);
    add({
      ...base(start, "production"),
      ChargeCategory: "Usage",
      ChargeDescription: `Amazon EC2 BoxUsage:${type}`,
      ServiceCategory: "Compute",
      ServiceName: "Amazon EC2",
      RegionId: "us-east-1",
      ResourceId: RESIZED.resource_id,
      ResourceName: RESIZED.resource_id,
      ResourceType: RESOURCE_TYPE.Compute,
      SkuId: `BoxUsage:${type}`,
      SkuPriceId: `BoxUsage:${type}:OnDemand`,
      PricingQuantity: "24",
      PricingUnit: "Hours",
      ConsumedQuantity: "24",
      ConsumedUnit: "Hours",
      ListUnitPrice: String(listHourly),
      ContractedUnitPrice: String(hourly),
      ListCost: cents(24 * listHourly),
      ContractedCost: cents(24 * hourly),
      BilledCost: cents(24 * hourly),
      EffectiveCost: cents(24 * hourly),
      Tags: JSON.stringify({ env: "production", team: "platform" }),
    });
  }
  // Production's monthly support fee (on the 1st, for the month: its budget counts it once, never
  // extrapolated), and the month's tax on the payer account, which no rule allocates.
  const months = [...new Set(rows.map((row) => row.BillingPeriodStart))];
  for (const month of months) {
    const start = new Date(month);
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    if (start.getTime() < today - 60 * DAY_MS) continue;
    const payer = { ...base(start, "payer"), ChargePeriodEnd: end.toISOString(), ChargeFrequency: "Recurring", Tags: "" };
    const support = {
      ...base(start, "production"),
      ChargePeriodEnd: end.toISOString(),
      ChargeFrequency: "Recurring",
      Tags: "",
      ChargeCategory: "Purchase",
      ChargeDescription: "AWS Support (Business), monthly",
      ServiceCategory: "Management and Governance",
      ServiceName: "AWS Support (Business)",
      PricingQuantity: "1",
      PricingUnit: "Month",
      ListCost: cents(SUPPORT_FEE),
      ContractedCost: cents(SUPPORT_FEE),
      BilledCost: cents(SUPPORT_FEE),
      EffectiveCost: cents(SUPPORT_FEE),
    };
    add(support);
    const tax = cents((billed.get(month) ?? 0) * TAX_RATE);
    rows.push({
      ...payer,
      ChargeCategory: "Tax",
      ChargeDescription: "Sales tax",
      ServiceCategory: "Other",
      ServiceName: "Tax",
      PricingCategory: "",
      ListCost: "0.00",
      ContractedCost: tax,
      BilledCost: tax,
      EffectiveCost: tax,
    });
  }
  return rows;
}

const csvOf = (rows) => `${[COLUMNS.join(","), ...rows.map((row) => COLUMNS.map((column) => quote(row[column] ?? "")).join(","))].join("\n")}\n`;

/** The CSV text of the whole bill (one file). */
export function demoFocusCsv(now) {
  return csvOf(demoFocusRows(now));
}

/** The bill as AWS Data Exports deliver it: two files (the rows split in half) and the manifest naming them. */
export function demoFocusExport(now) {
  const rows = demoFocusRows(now);
  const half = Math.ceil(rows.length / 2);
  const stamp = new Date(now).toISOString().slice(0, 10).replace(/-/g, "");
  const files = [csvOf(rows.slice(0, half)), csvOf(rows.slice(half))];
  const manifest = {
    executionId: `demo-${stamp}`,
    exportArn: "arn:aws:bcm-data-exports:us-east-1:123456789012:export/demo-focus",
    dataFiles: files.map((_, i) => `s3://demo-cur/exports/demo-focus/data/BILLING_PERIOD=${stamp}/demo-focus-0000${i + 1}.csv.gz`),
  };
  return { manifest, files };
}

/**
 * Allocation rules (Production and Staging by sub-account; the sandbox and payer accounts stay
 * unallocated), then the bill as AWS delivers it: the manifest first, then its two data files
 * (gzip CSV) as parts 1 and 2 of one import session, committed together when the second arrives.
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
  const { manifest, files } = demoFocusExport(now);
  const session = manifest.executionId;
  await main.createSpendImport({ params: { org_id: org }, query: { session }, body: JSON.stringify(manifest), contentType: "application/json" });
  let imported;
  for (const [i, file] of files.entries()) {
    const posted = await main.createSpendImport({
      params: { org_id: org },
      query: { session, part: i + 1 },
      body: gzipSync(file),
      contentType: "text/csv",
      contentEncoding: "gzip",
    });
    imported = posted.import;
  }
  const [posted] = (await main.listSpendImportSessions({ params: { org_id: org }, query: { limit: 1 } })).items;
  log(`  Cloud bill: FOCUS 1.2 export in 2 parts with a manifest (session ${session}: ${posted?.rows} rows, ${posted?.state})`);
  return imported;
}
