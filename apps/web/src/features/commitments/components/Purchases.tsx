import { useState } from "react";
import { Link } from "react-router";
import { Empty, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { SavingsCurve } from "./SavingsCurve";
import { usePurchaseRecommendations } from "../hooks";

const TYPES = { savings_plan: "Savings Plan", reserved_instance: "Reserved Instance", committed_use: "Committed use" } as const;
const PAYMENTS = { no_upfront: "no upfront", partial_upfront: "partial upfront", all_upfront: "all upfront" } as const;

/** The hourly commitment that would have saved the most over the lookback, per registered commitment rate. */
export function Purchases({ orgId }: { orgId: string }) {
  const [lookback, setLookback] = useState(30);
  const recommendations = usePurchaseRecommendations(orgId, lookback, true);
  return (
    <section className="card" aria-labelledby="purchases">
      <h2 id="purchases">What to buy</h2>
      <p className="muted">
        For each commitment rate on the <Link to="/prices">Prices</Link> page: the hourly commitment that would have saved the most over the hourly on-demand
        spend of the lookback (eligible services, Standard-priced usage spread over its hours).
      </p>
      <label className="inline">
        Lookback{" "}
        <select value={lookback} onChange={(e) => setLookback(Number(e.target.value))}>
          {[7, 30, 60, 90].map((d) => (
            <option key={d} value={d}>
              {d} days
            </option>
          ))}
        </select>
      </label>
      <QueryState query={recommendations}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No commitment rate registered: register one on the Prices page to get a recommendation.</Empty>
          ) : (
            <ul className="plain">
              {data.items.map((r) => (
                <li key={r.rate_id} className="card">
                  <h3>
                    {TYPES[r.commitment_type]}, {r.term_months / 12} year{r.term_months === 12 ? "" : "s"}, {PAYMENTS[r.payment_option]}: {r.discount_percent} %
                    off
                  </h3>
                  <dl className="cards">
                    <div className="card stat">
                      <dt>Commit</dt>
                      <dd data-testid="hourly-commitment">{money(r.hourly_commitment, "USD")} / hour</dd>
                    </div>
                    <div className="card stat">
                      <dt>Saves</dt>
                      <dd>{money(r.monthly_savings, "USD")} / month</dd>
                    </div>
                    <div className="card stat">
                      <dt>Expected utilization</dt>
                      <dd>{r.expected_utilization_percent ?? "—"} %</dd>
                    </div>
                    <div className="card stat">
                      <dt>Expected coverage</dt>
                      <dd>{r.expected_coverage_percent ?? "—"} %</dd>
                    </div>
                  </dl>
                  <p className="muted small">
                    Over {r.lookback.hours} hours, {r.lookback.start.slice(0, 16).replace("T", " ")} to {r.lookback.end.slice(0, 16).replace("T", " ")} UTC.
                  </p>
                  {r.savings_curve && <SavingsCurve points={r.savings_curve} recommended={r.hourly_commitment} />}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
