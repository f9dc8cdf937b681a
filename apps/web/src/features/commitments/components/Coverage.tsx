import type { CoverageGroup } from "@cloudcost/contracts";
import { useState } from "react";
import { Empty, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { useTenant } from "../../../app/tenant";
import { useCoverage } from "../hooks";

const GROUPS: Record<CoverageGroup, string> = { service_name: "service", region: "region", sub_account_id: "sub-account", tenant: "tenant" };

/** Covered / eligible list cost by group; members and viewers see their own tenants' usage only. */
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
        Of the usage commitments could cover (services with committed usage in the range, and every Compute service), the share of its list cost they did cover.
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
                  <th scope="col">{GROUPS[data.group_by]}</th>
                  <th scope="col">Coverage</th>
                  <th scope="col">Covered (list)</th>
                  <th scope="col">Eligible (list)</th>
                  <th scope="col">On demand paid</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr key={row.group ?? ""}>
                    <th scope="row">{label(row.group)}</th>
                    <td>{row.coverage_percent ?? "—"} %</td>
                    <td>{money(row.covered_list_cost, "USD")}</td>
                    <td>{money(row.eligible_list_cost, "USD")}</td>
                    <td>{money(row.on_demand_cost, "USD")}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">All</th>
                  <td data-testid="coverage-total">{data.totals.coverage_percent ?? "—"} %</td>
                  <td>{money(data.totals.covered_list_cost, "USD")}</td>
                  <td>{money(data.totals.eligible_list_cost, "USD")}</td>
                  <td>{money(data.totals.on_demand_cost, "USD")}</td>
                </tr>
              </tfoot>
            </table>
          )
        }
      </QueryState>
    </section>
  );
}
