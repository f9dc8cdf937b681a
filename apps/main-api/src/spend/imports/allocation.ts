import type { SpendAllocationRule } from "@cloudcost/contracts";

/** Which tenant an import line goes to: the first rule it matches, or null (unallocated). */
export type Allocate = (line: { sub_account_id: string | null; billing_account_id: string | null; tags: Record<string, unknown> }) => string | null;

export function allocator(rules: SpendAllocationRule[]): Allocate {
  const compiled = rules.map((rule) => ({
    tenantId: rule.tenant_id,
    subAccounts: rule.sub_account_ids && new Set(rule.sub_account_ids),
    billingAccounts: rule.billing_account_ids && new Set(rule.billing_account_ids),
    tagKey: rule.tag?.key,
    tagValues: rule.tag && new Set(rule.tag.values),
  }));
  return (line) => {
    for (const rule of compiled) {
      if (rule.subAccounts && (line.sub_account_id === null || !rule.subAccounts.has(line.sub_account_id))) continue;
      if (rule.billingAccounts && (line.billing_account_id === null || !rule.billingAccounts.has(line.billing_account_id))) continue;
      if (rule.tagKey !== undefined) {
        const value = line.tags[rule.tagKey];
        if (typeof value !== "string" || !rule.tagValues?.has(value)) continue;
      }
      return rule.tenantId;
    }
    return null;
  };
}
