import { formatDate, formatUsd } from "../../../shared/format";
import { BASIS_LABELS, changeLabel, type RealizedSavingsItem } from "../savings";
import { ACTION_LABELS } from "../../recommendations/recommendation";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

/** One row per change: what was recommended, what was done, and the cost before and after with its source. */
export function SavingsByResource({ items }: { items: readonly RealizedSavingsItem[] }) {
  return (
    <section aria-labelledby="savings-resources-title">
      <h2 id="savings-resources-title">Per resource</h2>
      <ScrollRegion labelledBy="savings-resources-title">
        <DataTable
          caption="Realized savings per resource, oldest change first"
          columns={[
            "Resource",
            "Recommended",
            "Done",
            num("Estimated / month"),
            num("Before \u2192 after / month"),
            num("Realized or projected / month"),
            "Basis",
          ]}
        >
          {items.map((item) => (
            <tr key={`${item.resource_id} ${item.change.at}`}>
              <th scope="row">{item.resource_id}</th>
              <td>
                {ACTION_LABELS[item.recommendation.action]}
                {item.recommendation.recommended_instance_type ? ` to ${item.recommendation.recommended_instance_type}` : ""}
              </td>
              <td>
                {changeLabel(item)} <span className="muted">on {formatDate(item.change.at)}</span>{" "}
                <span className="tag">{item.followed ? "as recommended" : "not as recommended"}</span>
              </td>
              <td className="num">{formatUsd(item.recommendation.savings_monthly_usd)}</td>
              <td className="num">
                {formatUsd(item.before_monthly_usd)} → {formatUsd(item.after_monthly_usd)}
              </td>
              <td className="num">
                {formatUsd(item.realized_savings_monthly_usd)}
                {item.basis === "catalog" && <span className="muted"> (projected)</span>}
                {item.reason === "commitment_covered" && (
                  <span className="tag" title="The commitment is paid either way: what the resource stopped using became the commitment's unused part.">
                    under a commitment
                  </span>
                )}
              </td>
              <td>
                <span title={BASIS_LABELS[item.basis]}>{item.basis === "bill" ? `Bill, ${item.days_observed} days after` : "Catalog prices"}</span>
              </td>
            </tr>
          ))}
        </DataTable>
      </ScrollRegion>
    </section>
  );
}
