import type { SpendAllocationRule } from "@cloudcost/contracts";

/** One allocation rule as the form holds it: lists as text separated by commas. */
export interface RuleForm {
  tenant_id: string;
  sub_account_ids: string;
  billing_account_ids: string;
  tag_key: string;
  tag_values: string;
}

const list = (text: string) => [
  ...new Set(
    text
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

export const ruleToForm = (rule: SpendAllocationRule): RuleForm => ({
  tenant_id: rule.tenant_id,
  sub_account_ids: (rule.sub_account_ids ?? []).join(", "),
  billing_account_ids: (rule.billing_account_ids ?? []).join(", "),
  tag_key: rule.tag?.key ?? "",
  tag_values: (rule.tag?.values ?? []).join(", "),
});

/** The PUT body of the rules in their order, or the first problem in words (rule numbers from 1). */
export function rulesBody(rows: readonly RuleForm[]): { rules: SpendAllocationRule[] } | { error: string } {
  const rules: SpendAllocationRule[] = [];
  for (const [i, row] of rows.entries()) {
    if (!row.tenant_id) return { error: `Rule ${i + 1}: pick the tenant it allocates to.` };
    const rule: SpendAllocationRule = { tenant_id: row.tenant_id };
    const subs = list(row.sub_account_ids);
    const billing = list(row.billing_account_ids);
    const values = list(row.tag_values);
    if (subs.length) rule.sub_account_ids = subs;
    if (billing.length) rule.billing_account_ids = billing;
    if (row.tag_key.trim() || values.length) {
      if (!row.tag_key.trim() || !values.length) return { error: `Rule ${i + 1}: a tag criterion needs both its key and at least one value.` };
      rule.tag = { key: row.tag_key.trim(), values };
    }
    rules.push(rule);
  }
  return { rules };
}

/** Moves the rule at `from` one place up (-1) or down (+1); first match wins, so order matters. */
export function moved<T>(rows: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= rows.length) return [...rows];
  const next = [...rows];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}
