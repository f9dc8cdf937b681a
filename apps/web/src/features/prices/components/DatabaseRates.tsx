import type { DatabasePricingEntry } from "@cloudcost/contracts";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { type PriceRights, useDatabaseRates } from "../hooks";
import { Section } from "./VersionTable";
import { DataTable, ScrollRegion } from "../../../shared/components/DataTable";

export function DatabaseRates({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const { list: rates, remove } = useDatabaseRates(apiKey);
  const rateText = (d: DatabasePricingEntry) =>
    (
      [
        ["cost_per_hour", "/ hour"],
        ["cost_per_storage_gb_hour", "/ GB-hour"],
        ["cost_per_io_request", "/ I/O request"],
        ["cost_per_iops_hour", "/ IOPS-hour"],
        ["cost_per_throughput_mbps_hour", "/ MBps-hour"],
      ] as const
    )
      .filter(([field]) => d[field] !== null)
      .map(([field, unit]) => `${d[field]} ${d.currency} ${unit}`)
      .join(", ") || "—";
  return (
    <Section id="database-rates" title="Database rates">
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the rate" />}
      <QueryState query={rates}>
        {(data) =>
          data.entries.length === 0 ? (
            <Empty>No database rate registered (register them with POST /marketplace/providers/databases).</Empty>
          ) : (
            <ScrollRegion label="Database rates">
              <DataTable caption="Database rates" columns={["Database", "Rates", "Updated", rights.close && "Action"]}>
                {data.entries.map((d) => {
                  const name = [d.provider, d.service, d.region, d.engine, d.instance_type, d.deployment_option].filter(Boolean).join(" · ");
                  return (
                    <tr key={d.id}>
                      <td>{name}</td>
                      <td>{rateText(d)}</td>
                      <td>{formatDate(d.updated_at)}</td>
                      {rights.close && (
                        <td>
                          <button type="button" className="danger" onClick={() => window.confirm(`Delete the rate of ${name}?`) && remove.mutate(d.id)}>
                            Delete<span className="sr-only"> {name}</span>
                          </button>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </DataTable>
            </ScrollRegion>
          )
        }
      </QueryState>
    </Section>
  );
}
