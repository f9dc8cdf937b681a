import type { SpendReport } from "@cloudcost/contracts";
import { Empty } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { dimensionLabel, perText, unitMoney } from "../spend";
import { ScrollRegion } from "../../../shared/components/DataTable";

/** Why a row (or total) has no unit cost, in words. */
export function noUnitCost(metricAmount: string | null | undefined, metric: string): string {
  return metricAmount === null || metricAmount === undefined
    ? `No unit cost: no amount of ${metric} is stored for these days`
    : `No unit cost: ${metric} amounted to 0 on these days`;
}

/** A row's metric amount as a number in words (the exact decimal in the title). */
const amountText = (value: string) => {
  const n = Number(value);
  return Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: 2 }) : value;
};

export function SpendTable({
  report,
  groupBy,
  label,
}: {
  report: SpendReport;
  groupBy: string[];
  label: (dimension: string) => (value: string | null) => string;
}) {
  if (report.rows.length === 0) return <Empty>No spend in this range.</Empty>;
  // A dimension grouped: each row also says what its own lines cost and what splits moved.
  const shared = report.rows.some((row) => row.direct_cost !== undefined);
  // With a business metric (Cost per): what each row divides by and its unit cost.
  const per = report.per;
  return (
    <ScrollRegion label="Spend by group">
      <table>
        <caption className="sr-only">Spend of the range{groupBy.length ? ` by ${groupBy.map(dimensionLabel).join(" and ")}` : ""}</caption>
        <thead>
          <tr>
            {groupBy.map((g) => (
              <th scope="col" key={g}>
                {dimensionLabel(g)}
              </th>
            ))}
            {groupBy.length === 0 && <th scope="col">Spend</th>}
            <th scope="col" className="num">
              Cost
            </th>
            {shared && (
              <>
                <th scope="col" className="num" title="The cost of the value's own lines">
                  Direct
                </th>
                <th scope="col" className="num" title="What split rules moved to this value">
                  Shared in
                </th>
                <th scope="col" className="num" title="What split rules moved away from this value">
                  Shared out
                </th>
              </>
            )}
            {per && (
              <>
                <th scope="col" className="num" title={`The amount of ${per.metric} the row's cost is divided by, over the row's days`}>
                  Metric <span className="muted small">({per.unit})</span>
                </th>
                <th scope="col" className="num" title={`The row's cost divided by its ${per.metric}, per ${perText(per.unit, per.scale)}`}>
                  Unit cost <span className="muted small">(per {perText(per.unit, per.scale)})</span>
                </th>
              </>
            )}
            <th scope="col">Currency</th>
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row, i) => (
            <tr key={i}>
              {groupBy.map((g) => (
                <td key={g}>{label(g)(row.group[g] ?? null)}</td>
              ))}
              {groupBy.length === 0 && <td>Total</td>}
              <td className="num" title={row.cost}>
                {money(row.cost, row.currency)}
              </td>
              {shared && (
                <>
                  <td className="num" title={row.direct_cost}>
                    {money(row.direct_cost ?? "0", row.currency)}
                  </td>
                  <td className="num" title={row.shared_in}>
                    {money(row.shared_in ?? "0", row.currency)}
                  </td>
                  <td className="num" title={row.shared_out}>
                    {money(row.shared_out ?? "0", row.currency)}
                  </td>
                </>
              )}
              {per && (
                <>
                  <td className="num" title={row.metric_amount ?? `No amount of ${per.metric} is stored for these days`}>
                    {row.metric_amount == null ? "—" : amountText(row.metric_amount)}
                  </td>
                  {row.unit_cost == null ? (
                    <td className="num" title={noUnitCost(row.metric_amount, per.metric)} data-testid="unit-cost">
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">{noUnitCost(row.metric_amount, per.metric)}</span>
                    </td>
                  ) : (
                    <td className="num" title={row.unit_cost} data-testid="unit-cost">
                      {unitMoney(row.unit_cost, row.currency)}
                    </td>
                  )}
                </>
              )}
              <td>{row.currency}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
