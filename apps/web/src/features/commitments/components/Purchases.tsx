import type { CommitmentRecommendation } from "@cloudcost/contracts";
import { useState } from "react";
import { Link } from "react-router";
import { Empty, QueryState } from "../../../shared/components/status";
import { formatDate, money } from "../../../shared/format";
import { SavingsCurve } from "./SavingsCurve";
import { usePurchaseRecommendations } from "../hooks";

const TYPES = { savings_plan: "Savings Plan", reserved_instance: "Reserved Instance", committed_use: "Committed use" } as const;
const PAYMENTS = { no_upfront: "no upfront", partial_upfront: "partial upfront", all_upfront: "all upfront" } as const;
const percent = (value: string | null) => (value === null ? "—" : `${value} %`);

/** One rate's answer: what to commit to (or, plainly, to buy nothing), its costs and break-even beside the curve. */
function Recommendation({ r }: { r: CommitmentRecommendation }) {
  const nothing = r.reason === "no_savings";
  return (
    <li className="card">
      <h3>
        {TYPES[r.commitment_type]}, {r.term_months / 12} year{r.term_months === 12 ? "" : "s"}, {PAYMENTS[r.payment_option]}: {r.discount_percent} % off
        {r.family ? `, ${r.family} family` : ""}
      </h3>
      {r.warnings.includes("stale_data") && (
        <p className="warning" data-testid="stale-data">
          The bills end {r.lookback.data_through ? formatDate(r.lookback.data_through) : "nowhere: there is no eligible usage"}, more than 3 days ago: import
          the latest bill before buying on this figure.
        </p>
      )}
      {nothing ? (
        <p className="verdict" data-testid="buy-nothing">
          <strong>Buy nothing at this rate.</strong> No hourly commitment would have saved money over the lookback: the eligible on-demand usage does not run
          above the break-even ({r.break_even_utilization_percent} % utilization) often enough.
        </p>
      ) : (
        <p className="verdict">
          Commit to <strong data-testid="hourly-commitment">{money(r.hourly_commitment, "USD")} / hour</strong> to save{" "}
          <strong>{money(r.monthly_savings, "USD")} / month</strong>.
        </p>
      )}
      <div className="curve-beside">
        {r.savings_curve && <SavingsCurve points={r.savings_curve} recommended={r.hourly_commitment} />}
        <dl className="cards">
          <div className="card stat">
            <dt>Break-even utilization</dt>
            <dd data-testid="break-even">{r.break_even_utilization_percent} %</dd>
          </div>
          <div className="card stat">
            <dt>Paid up front</dt>
            <dd data-testid="upfront">{money(r.upfront_cost, "USD")}</dd>
          </div>
          <div className="card stat">
            <dt>Commitment / month</dt>
            <dd>{money(r.monthly_commitment_cost, "USD")}</dd>
          </div>
          <div className="card stat">
            <dt>Return on the commitment</dt>
            <dd>{percent(r.roi_percent)}</dd>
          </div>
          <div className="card stat">
            <dt>Hours above break-even</dt>
            <dd>{percent(r.hours_above_break_even_percent)}</dd>
          </div>
          <div className="card stat">
            <dt>Expected utilization</dt>
            <dd>{percent(r.expected_utilization_percent)}</dd>
          </div>
          <div className="card stat">
            <dt>Expected coverage</dt>
            <dd>{percent(r.expected_coverage_percent)}</dd>
          </div>
        </dl>
      </div>
      <p className="muted small">
        Over {r.lookback.hours} hours, {r.lookback.start.slice(0, 16).replace("T", " ")} to {r.lookback.end.slice(0, 16).replace("T", " ")} UTC.
      </p>
    </li>
  );
}

/** The hourly commitment that would have saved the most over the lookback, per registered commitment rate. */
export function Purchases({ orgId }: { orgId: string }) {
  const [lookback, setLookback] = useState(30);
  const recommendations = usePurchaseRecommendations(orgId, lookback, true);
  return (
    <section className="card" aria-labelledby="purchases">
      <h2 id="purchases">What to buy</h2>
      <p className="muted">
        For each commitment rate on the <Link to="/prices">Prices</Link> page: the hourly commitment that would have saved the most over the hourly on-demand
        spend of the lookback (the rate's provider, and family when it names one; compute usage charged by the hour, never spot or storage). Below the
        break-even utilization a commitment costs more than on demand.
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
                <Recommendation key={r.rate_id} r={r} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
