import type { SpendReport } from "@cloudcost/contracts";
import { ErrorNote } from "../../../shared/components/status";
import { formatNumber, money } from "../../../shared/format";
import { useReprice } from "../hooks";

/** The pricing API's reasons (UnresolvedReason), in words. */
const REASONS: Record<string, string> = {
  no_pricing_label: "the line names no price entry (no pricing label)",
  unknown_pricing_id: "the price entry it names does not exist",
  closed: "the price entry was closed before the line's time",
  not_yet_effective: "the price entry takes effect after the line's time",
  bucket_not_priced: "a token bucket of the line has no price (register one, then reprice)",
};
const reasonText = (reason: string) => REASONS[reason] ?? reason.replaceAll("_", " ");

export function Totals({ report }: { report: SpendReport }) {
  return (
    <dl className="cards">
      {report.totals.length === 0 ? (
        <div className="card stat" data-testid="spend-total">
          <dt>Total</dt>
          <dd>{money("0", "USD")}</dd>
        </div>
      ) : (
        report.totals.map((t) => (
          <div className="card stat" key={t.currency} data-testid="spend-total">
            <dt>Total {t.currency}</dt>
            <dd title={`${t.cost} ${t.currency}`}>{money(t.cost, t.currency)}</dd>
          </div>
        ))
      )}
      <div className="card stat">
        <dt>Range</dt>
        <dd className="small">
          {report.start.slice(0, 10)} → {report.end.slice(0, 16).replace("T", " ")} UTC
        </dd>
      </div>
    </dl>
  );
}

export function Unpriced({
  report,
  canReprice,
  tenantId,
  tenantName,
  orgView,
}: {
  report: SpendReport;
  canReprice: boolean;
  tenantId: string | undefined;
  tenantName: string;
  orgView: boolean;
}) {
  const reprice = useReprice(tenantId, report);
  if (report.unpriced.lines === 0 && !reprice.data) return null;
  return (
    <section className="card callout" aria-labelledby="unpriced">
      <h2 id="unpriced">Unpriced usage</h2>
      {report.unpriced.lines > 0 ? (
        <>
          <p>
            {formatNumber(report.unpriced.lines)} usage line{report.unpriced.lines === 1 ? " has no price and counts" : "s have no price and count"} in no
            total:
          </p>
          <ul>
            {Object.entries(report.unpriced.by_reason).map(([reason, n]) => (
              <li key={reason}>
                <strong>{formatNumber(n)}</strong> — {reasonText(reason)} (<code>{reason}</code>)
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>Every usage line of the range is priced.</p>
      )}
      {canReprice && report.unpriced.lines > 0 && (
        <p>
          <button type="button" onClick={() => reprice.mutate()} disabled={reprice.isPending}>
            Reprice {orgView ? `${tenantName}'s` : "the"} unpriced usage
          </button>{" "}
          <span className="muted">with the prices now registered, effective at each line's time.</span>
        </p>
      )}
      {reprice.data && (
        <p role="status">
          Repriced {reprice.data.repriced} line{reprice.data.repriced === 1 ? "" : "s"}; {reprice.data.still_unpriced} still without a price.
        </p>
      )}
      {reprice.error && <ErrorNote error={reprice.error} title="Could not reprice" />}
    </section>
  );
}
