import { formatUsd } from "../../../shared/format";
import type { MonthOfSavings } from "../savings";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

/** Estimated against realized (bill) and projected (catalog) monthly savings, per calendar month in which the changes were made. */
export function SavingsByMonth({ months }: { months: MonthOfSavings[] }) {
  return (
    <section aria-labelledby="savings-months-title">
      <h2 id="savings-months-title">Per month of the changes</h2>
      <ScrollRegion labelledBy="savings-months-title">
        <DataTable
          caption="Estimated, realized and projected savings per month"
          columns={["Month", num("Changes"), num("Estimated / month"), num("Realized / month"), num("Projected / month"), "Basis"]}
        >
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
        </DataTable>
      </ScrollRegion>
    </section>
  );
}
