import type { CoverageGroup } from "@cloudcost/contracts";
import { useState } from "react";
import { Empty, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { useTenant } from "../../../app/tenant";
import { useCoverage } from "../hooks";
import { DataTable } from "../../../shared/components/DataTable";
import { OptionsField } from "../../../shared/components/OptionsField";

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
      <OptionsField className="inline" label="By " options={GROUPS} value={groupBy} onChange={(e) => setGroupBy(e.target.value as CoverageGroup)} />
      <QueryState query={coverage}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty>No eligible usage in this range.</Empty>
          ) : (
            <DataTable
              caption={`Coverage by ${GROUPS[data.group_by]}`}
              captionVisible
              columns={["Provider", GROUPS[data.group_by], "Coverage", "Covered (on-demand equivalent)", "On demand paid"]}
              foot={data.totals.map((t) => (
                <tr key={`${t.provider} ${t.currency}`}>
                  <td>{t.provider ?? "—"}</td>
                  <th scope="row">All ({t.currency ?? "USD"})</th>
                  <td data-testid="coverage-total">{t.coverage_percent ?? "—"} %</td>
                  <td>{money(t.covered_on_demand_equivalent, t.currency ?? "USD")}</td>
                  <td>{money(t.on_demand_cost, t.currency ?? "USD")}</td>
                </tr>
              ))}
            >
              {data.rows.map((row) => (
                <tr key={`${row.provider} ${row.currency} ${row.group ?? ""}`}>
                  <td>{row.provider ?? "—"}</td>
                  <th scope="row">{label(row.group)}</th>
                  <td>{row.coverage_percent ?? "—"} %</td>
                  <td>{money(row.covered_on_demand_equivalent, row.currency ?? "USD")}</td>
                  <td>{money(row.on_demand_cost, row.currency ?? "USD")}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}
