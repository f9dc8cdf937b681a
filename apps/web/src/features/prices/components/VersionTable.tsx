import type { ReactNode } from "react";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { type PriceSeries, versionSeries } from "../prices";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="price-section">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export type Versioned = { id: string; effective_from: string; effective_to: string | null };

export interface VersionListProps<T extends Versioned> {
  query: { isPending: boolean; error: unknown; data: { entries: T[] } | undefined };
  caption: string;
  /** What a row is, for the close error ("Could not close the …"). */
  what: string;
  empty: ReactNode;
  identity: (row: T) => string;
  price: (row: T) => string;
  canClose: boolean;
  close: { mutate(id: string): void; error: Error | null };
}

/**
 * A registered price list with every version: the close error, then the rows grouped by `identity`
 * (each newest first), or `empty` when there is none.
 */
export function VersionList<T extends Versioned>({ query, caption, what, empty, identity, price, canClose, close }: VersionListProps<T>) {
  return (
    <>
      {close.error && <ErrorNote error={close.error} title={`Could not close the ${what}`} />}
      <QueryState query={query}>
        {(data) =>
          data.entries.length === 0 ? (
            <Empty>{empty}</Empty>
          ) : (
            <VersionTable
              caption={caption}
              series={versionSeries(data.entries, identity)}
              label={identity}
              price={price}
              canClose={canClose}
              onClose={(row) => close.mutate(row.id)}
            />
          )
        }
      </QueryState>
    </>
  );
}

function VersionTable<T extends Versioned>({
  caption,
  series,
  label,
  price,
  canClose,
  onClose,
}: {
  caption: string;
  series: PriceSeries<T>[];
  label: (row: T) => string;
  price: (row: T) => string;
  canClose: boolean;
  onClose(row: T): void;
}) {
  return (
    <ScrollRegion label={caption}>
      <DataTable caption={`${caption}, each with its versions, newest first`} columns={["Price of", num("Price"), "Effective", "State"]}>
        {series.flatMap((s) =>
          s.versions.map((row, i) => (
            <tr key={row.id} className={i > 0 ? "history" : undefined}>
              <td>{i === 0 ? label(row) : <span className="muted">earlier version</span>}</td>
              <td className="num">{price(row)}</td>
              <td>
                {formatDate(row.effective_from)} → {row.effective_to ? formatDate(row.effective_to) : "open"}
              </td>
              <td>
                {row.effective_to === null ? (
                  canClose ? (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => window.confirm(`Close the price of ${label(row)}? It stops applying now.`) && onClose(row)}
                    >
                      Close<span className="sr-only"> {label(row)}</span>
                    </button>
                  ) : (
                    "open"
                  )
                ) : Date.parse(row.effective_from) > Date.now() ? (
                  "scheduled"
                ) : (
                  "closed"
                )}
              </td>
            </tr>
          )),
        )}
      </DataTable>
    </ScrollRegion>
  );
}
