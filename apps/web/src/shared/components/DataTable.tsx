import type { ReactNode } from "react";

/** A column of a DataTable: its header, `num(…)` for an amount's (right-aligned); `false` leaves it out. */
export type Column = ReactNode | { num: ReactNode };

/** The header of a column of amounts (right-aligned like its cells). */
export const num = (head: ReactNode): Column => ({ num: head });

const isNum = (column: Column): column is { num: ReactNode } => typeof column === "object" && column !== null && "num" in column;

/**
 * A table with its caption, if any (for screen readers only, unless `captionVisible`), a header row of
 * `columns`, its rows (`children`) and, when given, its footer's rows (`foot`).
 */
export function DataTable({
  caption,
  captionVisible,
  columns,
  children,
  foot,
}: {
  caption?: ReactNode;
  captionVisible?: boolean;
  columns: Column[];
  children: ReactNode;
  foot?: ReactNode;
}) {
  return (
    <table>
      {caption !== undefined && <caption className={captionVisible ? undefined : "sr-only"}>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, i) =>
            column === false || column === null || column === undefined ? null : (
              <th key={i} scope="col" className={isNum(column) ? "num" : undefined}>
                {isNum(column) ? column.num : column}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
      {foot && <tfoot>{foot}</tfoot>}
    </table>
  );
}

/**
 * A region around a table wider than a phone, which scrolls sideways: keyboard users must be able to
 * focus it to scroll it (WCAG 2.1.1; axe scrollable-region-focusable). Named by `label`, or by the
 * element `labelledBy` names.
 */
export function ScrollRegion({ label, labelledBy, children }: { label?: string; labelledBy?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls; see above
    <section className="table-wrap" aria-label={label} aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </section>
  );
}
