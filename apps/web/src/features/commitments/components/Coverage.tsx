import type { CoverageGroup } from "@cloudcost/contracts";
import { useState } from "react";
import { Empty, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { useTenant } from "../../../app/tenant";
import { useCoverage } from "../hooks";

const GROUPS: Record<CoverageGroup, string> = { service_name: "service", region: "region", sub_account_id: "sub-account", tenant: "tenant" };

/**
 * Covered on-demand equivalent / (that + on-demand cost of the eligible usage) per provider and
 * group; members and viewers see their own tenants' usage only.
 */
export function Coverage({ orgId, range, manager }: { orgId: string; range: { start: string; end: string }; manager: boolean }) {
  const [groupBy, setGroupBy] = useState<CoverageGroup>("service_name");
  const coverage = useCoverage(orgId, range, groupBy);
  const { tenants } = useTenant();
  const label = (group: string | null) =>
    group === null ? (groupBy === "tenant" ? "Unallocated" : "(none)") : groupBy === "tenant" ? (tenants.find((t) => t.id === group)?.name ?? group) : group;
  return (
    <section className="card" aria-labelledby="coverage">
      <h2 id="coverage">Coverage</h2>
      <p className="muted">
        Of the usage a commitment could cover (compute usage charged by the hour, on demand or committed; never spot, storage or data transfer), the share
        commitments covered, at on-demand rates, per provider.
        {manager ? "" : " You see the usage of your own tenants."}
      </p>
      <label className="inline">
        By{" "}
        <select value={groupBy} onChange={(e) => setGroupBy(e.target.value as CoverageGroup)}>
          {Object.entries(GROUPS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <QueryState query={coverage}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty>No eligible usage in this range.</Empty>
          ) : (
            <table>
              <caption>Coverage by {GROUPS[data.group_by]}</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">{GROUPS[data.group_by]}</th>
                  <th scope="col">Coverage</th>
                  <th scope="col">Covered (on-demand equivalent)</th>
                  <th scope="col">On demand paid</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr key={`${row.provider} ${row.currency} ${row.group ?? ""}`}>
                    <td>{row.provider ?? "—"}</td>
                    <th scope="row">{label(row.group)}</th>
                    <td>{row.coverage_percent ?? "—"} %</td>
                    <td>{money(row.covered_on_demand_equivalent, row.currency ?? "USD")}</td>
                    <td>{money(row.on_demand_cost, row.currency ?? "USD")}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                {data.totals.map((t) => (
                  <tr key={`${t.provider} ${t.currency}`}>
                    <td>{t.provider ?? "—"}</td>
                    <th scope="row">All ({t.currency ?? "USD"})</th>
                    <td data-testid="coverage-total">{t.coverage_percent ?? "—"} %</td>
                    <td>{money(t.covered_on_demand_equivalent, t.currency ?? "USD")}</td>
                    <td>{money(t.on_demand_cost, t.currency ?? "USD")}</td>
                  </tr>
                ))}
              </tfoot>
            </table>
          )
        }
      </QueryState>
    </section>
  );
}
