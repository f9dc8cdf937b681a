import type { RecommendationSummary } from "@cloudcost/contracts";
import { useEffect } from "react";
import { formatUsd } from "../../../shared/format";

export function SummaryCards({ summary }: { summary: RecommendationSummary }) {
  const cards: [string, string, string][] = [
    ["savings-monthly", "Potential savings / month", formatUsd(summary.potential_savings_monthly_usd)],
    ["savings-annual", "Potential savings / year", formatUsd(summary.potential_savings_annual_usd)],
    ["actionable", "Actionable resources", String(summary.actionable_count)],
    ["analyzed", "Analyzed / total", `${summary.analyzed_resources} / ${summary.total_resources}`],
  ];
  // Read by the e2e suite: when the first figures from the API were on screen.
  useEffect(() => {
    if (performance.getEntriesByName("summary-rendered").length === 0) performance.mark("summary-rendered");
  }, []);
  return (
    <dl className="cards">
      {cards.map(([id, label, value]) => (
        <div className="card stat" key={id} data-testid={id}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
