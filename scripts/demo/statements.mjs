// The demo's statements (docs/api.md, "Statements"): last month's bill by the `team` dimension
// (scripts/demo/dimensions.mjs), made final, and by tenant, left a draft; in the organization's currency.

/** `YYYY-MM` of the UTC month before `now`'s. */
export function lastMonth(now) {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** Creates last month's statement by team (finalized) and by tenant (a draft), and says where to see them. */
export async function loadStatements({ main, org, now, log }) {
  const period = lastMonth(now);
  const { default_currency: currency } = await main.getSettings({ params: { org_id: org } });
  const byTeam = await main.createStatement({ params: { org_id: org }, body: { period, by: "dimension:team", metric: "effective_cost", currency } });
  const final = await main.finalizeStatement({ params: { org_id: org, id: byTeam.id } });
  const byTenant = await main.createStatement({ params: { org_id: org }, body: { period, by: "tenant", metric: "effective_cost", currency } });
  const describe = (s) =>
    `${s.number} by ${s.by === "tenant" ? "tenant" : "team"} (${s.status}, ${s.recipients.length} recipient${s.recipients.length === 1 ? "" : "s"}, bill ${s.reconciliation.bill_total} ${s.currency}, difference ${s.reconciliation.difference})`;
  log(
    `  Statements of ${period}: ${describe(final)} and ${describe(byTenant)}: the console's Statements page (owners and admins) shows each one's reconciliation and recipients`,
  );
}
