import { Link } from "react-router";
import { useSummary } from "../../recommendations/hooks";
import { ActionChart } from "../../recommendations/components/ActionChart";
import { SpendOverview } from "./SpendOverview";
import { SummaryCards } from "../../recommendations/components/SummaryCards";
import { Empty, QueryState } from "../../../shared/components/status";
import { formatUsd } from "../../../shared/format";
import { useTenant } from "../../../app/tenant";

const NO_FILTER = new URLSearchParams();

export default function Overview() {
  const { tenantId, tenants } = useTenant();
  const summary = useSummary(tenantId, NO_FILTER);
  const tenantName = tenants.find((t) => t.id === tenantId)?.name;
  return (
    <>
      <h1>Overview</h1>
      {!tenantId ? (
        <Empty>No tenant is in your reach yet: ask an administrator to give you one.</Empty>
      ) : (
        <>
          <QueryState query={summary}>
            {(s) => (
              <>
                <h2>Right-sizing, virtual machines of {tenantName}</h2>
                <SummaryCards summary={s} />
                <div className="grid-2">
                  <section className="card" aria-labelledby="by-action">
                    <h3 id="by-action">Resources per action</h3>
                    <ActionChart counts={s.action_counts} />
                  </section>
                  <section className="card" aria-labelledby="top-savers">
                    <h3 id="top-savers">Top savers</h3>
                    {s.top_savers.length === 0 ? (
                      <Empty>No resource with savings yet.</Empty>
                    ) : (
                      <ol className="plain top">
                        {s.top_savers.map((t) => (
                          <li key={t.resource_id}>
                            <Link to={`/recommendations?resource=${encodeURIComponent(t.resource_id)}`}>{t.name || t.resource_id}</Link>{" "}
                            <span className="muted">
                              {t.current_instance_type} → {t.recommended_instance_type || "terminate"}
                            </span>{" "}
                            <strong>{formatUsd(t.savings_monthly_usd)}</strong>
                          </li>
                        ))}
                      </ol>
                    )}
                  </section>
                </div>
              </>
            )}
          </QueryState>
          {/* The spend follows the right-sizing figures: on an embedded database the API answers one query at a time. */}
          <SpendOverview tenantId={tenantId} tenantName={tenantName} start={!summary.isPending} />
          <p>
            <Link to="/commitments">Commitments</Link>: how much of your Savings Plans and reservations is used, how much usage they cover, and what more to
            buy.
          </p>
        </>
      )}
    </>
  );
}
