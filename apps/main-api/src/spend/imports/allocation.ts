import type { SpendAllocationRule } from "@cloudcost/contracts";
import { type LedgerTx, reallocateLines } from "../ledger";

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

/** The same rules as `allocator`, in SQL over spend_lines `l` ($2: the rules as JSON). */
const RULE_TENANT = `(SELECT e.rule->>'tenant_id' FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(rule, n)
  WHERE (NOT jsonb_exists(e.rule, 'sub_account_ids') OR coalesce(jsonb_exists(e.rule->'sub_account_ids', l.sub_account_id), false))
    AND (NOT jsonb_exists(e.rule, 'billing_account_ids') OR coalesce(jsonb_exists(e.rule->'billing_account_ids', l.billing_account_id), false))
    AND (NOT jsonb_exists(e.rule, 'tag') OR (jsonb_typeof(l.tags->(e.rule->'tag'->>'key')) = 'string'
      AND jsonb_exists(e.rule->'tag'->'values', l.tags->>(e.rule->'tag'->>'key'))))
  ORDER BY e.n LIMIT 1)`;

/** Re-allocates every stored import line of the organization under `rules` (inside the caller's transaction). Returns the lines moved. */
export async function reallocateImports(tx: LedgerTx, organizationId: string, rules: SpendAllocationRule[]): Promise<number> {
  const moves = await tx.$queryRawUnsafe<{ id: string; tenant_id: string | null }[]>(
    `SELECT id, tenant_id FROM (SELECT l.id, l.tenant_id AS current, ${RULE_TENANT} AS tenant_id
       FROM spend_lines l WHERE l.organization_id = $1 AND l.source = 'focus_import') m
     WHERE current IS DISTINCT FROM tenant_id`,
    organizationId,
    JSON.stringify(rules),
  );
  return reallocateLines(
    tx,
    organizationId,
    moves.map((m) => ({ id: m.id, tenantId: m.tenant_id })),
  );
}
