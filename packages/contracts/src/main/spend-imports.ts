import { z } from "zod";
import { Currency, ServiceId, TimestampOutput } from "../common.js";

/** An exact amount as a decimal string: at most 10 decimal places, no exponent (sums of small charges exceed a JSON number). */
const ImportAmount = z.string().regex(/^-?\d+(\.\d{1,10})?$/, "must be a decimal string with at most 10 decimal places");

const IdList = z.array(z.string().trim().min(1).max(256)).min(1).max(1000);

export const SpendAllocationRule = z
  .strictObject({
    tenant_id: ServiceId,
    sub_account_ids: IdList.optional(),
    billing_account_ids: IdList.optional(),
    tag: z.strictObject({ key: z.string().min(1).max(256), values: IdList }).optional(),
  })
  .meta({
    id: "SpendAllocationRule",
    description:
      "Sends the import lines it matches to `tenant_id`. Every criterion given must match (a line's SubAccountId in `sub_account_ids`, " +
      "its BillingAccountId in `billing_account_ids`, its tag `tag.key` one of `tag.values`); a rule with no criterion matches every line.",
  });
export type SpendAllocationRule = z.infer<typeof SpendAllocationRule>;

export const SpendAllocationRules = z.strictObject({ rules: z.array(SpendAllocationRule).max(500) }).meta({
  id: "SpendAllocationRules",
  description: "The organization's allocation rules, in order: the first rule a line matches wins; a line no rule matches is unallocated.",
});
export type SpendAllocationRules = z.infer<typeof SpendAllocationRules>;

export const SpendAllocationRulesUpdated = SpendAllocationRules.extend({
  reallocated_lines: z.number().int().min(0).meta({ description: "Stored import lines whose tenant changed under the new rules." }),
}).meta({ id: "SpendAllocationRulesUpdated", description: "The rules as stored, and how many stored import lines moved." });

export const SpendImportQuery = z
  .strictObject({ file_name: z.string().trim().min(1).max(255).optional() })
  .meta({ id: "SpendImportQuery", description: "`file_name`: the name to record with the import (optional)." });

export const SpendImport = z
  .object({
    id: ServiceId,
    created_at: TimestampOutput,
    file_name: z.string().nullable(),
    focus_version: z.enum(["1.0", "1.1", "1.2", "1.3"]),
    rows: z.number().int().min(0),
    allocated_rows: z.number().int().min(0),
    unallocated_rows: z.number().int().min(0),
    billing_account_ids: z.array(z.string()),
    billing_periods: z.array(z.object({ start: TimestampOutput, end: TimestampOutput })),
    totals: z.array(z.object({ currency: Currency, billed_cost: ImportAmount, effective_cost: ImportAmount })),
    superseded_import_ids: z.array(ServiceId),
  })
  .meta({
    id: "SpendImport",
    description:
      "One imported FOCUS file: its rows, how many were allocated to tenants, the (billing account, billing period) pairs it holds, " +
      "its totals per currency, and the earlier imports whose lines for those pairs it replaced.",
  });
export type SpendImport = z.infer<typeof SpendImport>;

export const SpendImportCreated = z.object({ import: SpendImport }).meta({ id: "SpendImportCreated", description: "One FOCUS import." });
export const SpendImportPage = z
  .object({ items: z.array(SpendImport), next_cursor: z.string().nullable() })
  .meta({ id: "SpendImportPage", description: "A page of FOCUS imports, newest first; `next_cursor` is null on the last page." });
