import { formatDate, formatUsd } from "../../../shared/format";
import { BASIS_LABELS, changeLabel, type RealizedSavingsItem } from "../savings";
import { ACTION_LABELS } from "../../recommendations/recommendation";

/** One row per change: what was recommended, what was done, and the cost before and after with its source. */
export function SavingsByResource({ items }: { items: readonly RealizedSavingsItem[] }) {
  return (
    <section aria-labelledby="savings-resources-title">
      <h2 id="savings-resources-title">Per resource</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <section className="table-wrap" tabIndex={0} aria-labelledby="savings-resources-title">
        <table>
          <caption className="sr-only">Realized savings per resource, oldest change first</caption>
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">Recommended</th>
              <th scope="col">Done</th>
              <th scope="col" className="num">
                Estimated / month
              </th>
              <th scope="col" className="num">
                Before → after / month
              </th>
              <th scope="col" className="num">
                Realized or projected / month
              </th>
              <th scope="col">Basis</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      </section>
    </section>
  );
}
