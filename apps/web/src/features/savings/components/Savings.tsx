import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { useRealizedSavings } from "../hooks";
import { Empty, ErrorNote, Loading } from "../../../shared/components/status";
import { formatUsd } from "../../../shared/format";
import { savingsByMonth } from "../savings";
import { useTenant } from "../../../app/tenant";
import { SavingsByMonth } from "./SavingsByMonth";
import { SavingsByResource } from "./SavingsByResource";

const PERIODS: [string, string][] = [
  ["1", "This month"],
  ["3", "The last 3 months"],
  ["6", "The last 6 months"],
  ["12", "The last 12 months"],
];

/** From the first day of the month `months - 1` months back (UTC) to now. */
export function rangeOf(months: number, now = new Date()): { start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  return { start: start.toISOString().slice(0, 10), end: now.toISOString() };
}

/**
 * What following (or not following) the recommendations saved: each resize or retirement made
 * while a recommendation stood, its estimate next to what the bill (or the catalog) shows since.
 */
export default function Savings() {
  const [search, setSearch] = useSearchParams();
  const { tenantId } = useTenant();
  const months = PERIODS.some(([value]) => value === search.get("months")) ? Number(search.get("months")) : 3;
  // Whole minutes, so that re-renders do not ask for a new range every millisecond.
  const range = useMemo(() => rangeOf(months, new Date(Math.floor(Date.now() / 60_000) * 60_000)), [months]);
  const savings = useRealizedSavings(tenantId, range);

  if (!tenantId) return <Empty>No tenant is in your reach yet.</Empty>;
  return (
    <>
      <div className="title-row">
        <h1>Savings</h1>
        <label>
          Changes made in
          <select value={String(months)} onChange={(e) => setSearch(new URLSearchParams({ months: e.target.value }))}>
            {PERIODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted">
        Resources resized or retired after a recommendation was made. <strong>Estimated</strong> is the monthly saving the recommendation promised;{" "}
        <strong>realized</strong> is what the bill shows: the median daily cost of the resource's lines over up to 14 days before and after the change, times
        730 / 24, once there are at least 3 days on both sides. Until then the change is <strong>projected</strong> from the effective prices of the two types.
        A resource under a commitment (Reserved Instance, Savings Plan) realizes nothing by shrinking: the commitment is paid either way.
      </p>
      {savings.error ? (
        <ErrorNote error={savings.error} title="Could not load the savings" />
      ) : savings.isPending ? (
        <Loading />
      ) : savings.data.items.length === 0 ? (
        <Empty>No resource was resized or retired after a recommendation in this period.</Empty>
      ) : (
        <>
          <dl className="cards">
            <div className="card stat" data-testid="savings-estimated">
              <dt>Estimated / month</dt>
              <dd>{formatUsd(savings.data.totals.estimated)}</dd>
            </div>
            <div className="card stat" data-testid="savings-realized">
              <dt>Realized / month (bill)</dt>
              <dd>{formatUsd(savings.data.totals.realized)}</dd>
            </div>
            <div className="card stat" data-testid="savings-projected">
              <dt>Projected / month (prices)</dt>
              <dd>{formatUsd(savings.data.totals.projected)}</dd>
            </div>
            <div className="card stat">
              <dt>Changes</dt>
              <dd>{savings.data.items.length}</dd>
            </div>
          </dl>
          <SavingsByMonth months={savingsByMonth(savings.data.items)} />
          <SavingsByResource items={savings.data.items} />
        </>
      )}
    </>
  );
}
