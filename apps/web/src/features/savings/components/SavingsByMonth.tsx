import { formatUsd } from "../../../shared/format";
import type { MonthOfSavings } from "../savings";

/** Estimated against realized (bill) and projected (catalog) monthly savings, per calendar month in which the changes were made. */
export function SavingsByMonth({ months }: { months: MonthOfSavings[] }) {
  return (
    <section aria-labelledby="savings-months-title">
      <h2 id="savings-months-title">Per month of the changes</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (WCAG 2.1.1; axe scrollable-region-focusable) */}
      <section className="table-wrap" tabIndex={0} aria-labelledby="savings-months-title">
        <table>
          <caption className="sr-only">Estimated, realized and projected savings per month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="num">
                Changes
              </th>
              <th scope="col" className="num">
                Estimated / month
              </th>
              <th scope="col" className="num">
                Realized / month
              </th>
              <th scope="col" className="num">
                Projected / month
              </th>
              <th scope="col">Basis</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{m.month}</th>
                <td className="num">{m.changes}</td>
                <td className="num">{formatUsd(m.estimatedCents / 100)}</td>
                <td className="num">{formatUsd(m.realizedCents / 100)}</td>
                <td className="num">{formatUsd(m.projectedCents / 100)}</td>
                <td>
                  {m.byBill} from the bill, {m.changes - m.byBill} from prices
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}
