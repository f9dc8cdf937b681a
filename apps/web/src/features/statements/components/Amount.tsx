import { money } from "../../../shared/format";

/** An exact decimal amount in the console's money formatting, the exact decimal in its title. */
export function Amount({ value, currency }: { value: string; currency: string }) {
  return (
    <span className="amount" title={`${value} ${currency}`}>
      {money(value, currency)}
    </span>
  );
}

/** A table cell of an exact amount (right-aligned). */
export function AmountCell(props: { value: string; currency: string }) {
  return (
    <td className="num">
      <Amount {...props} />
    </td>
  );
}
