import type { SpendReport } from "@cloudcost/contracts";
import { Empty } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { dimensionLabel } from "../spend";

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
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (axe scrollable-region-focusable)
    <section className="table-wrap" aria-label="Spend by group" tabIndex={0}>
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
              <td>{row.currency}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
