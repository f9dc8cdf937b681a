import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useBudgets } from "../../budgets/hooks";
import { useForecast, useSpend } from "../../spend/hooks";
import { canManage, useMe } from "../../../app/app-context";
import { useTenant } from "../../../app/tenant";
import { money } from "../../../shared/format";
import { currenciesOf, forecastCurve, stackRows } from "../../spend/spend";
import { BudgetBurn } from "../../budgets/components/BudgetBurn";
import { ForecastChart } from "../../spend/components/ForecastChart";
import { SpendChart } from "../../spend/components/SpendChart";
import { Empty, QueryState } from "../../../shared/components/status";

const BASIS = { weekday_median: "median of the same weekday over 4 weeks", recent_mean: "mean of the last 7 days", none: "no forecast" } as const;

/** The overview's spend: month to date and the API's forecast, spend by day stacked by service, the forecast by day, top services, budget burn. */
export function SpendOverview({ tenantId, tenantName, start = true }: { tenantId: string; tenantName: string | undefined; start?: boolean }) {
  const [now] = useState(() => new Date());
  const monthStart = `${now.toISOString().slice(0, 8)}01`;
  const byDay = useSpend("tenant", tenantId, new URLSearchParams({ start: monthStart, granularity: "day", group_by: "service_name" }), start);
  const byService = useSpend("tenant", tenantId, new URLSearchParams({ start: monthStart, granularity: "none", group_by: "service_name" }), start);
  const budgets = useBudgets(tenantId, start);
  const forecast = useForecast(tenantId, "USD", start);
  // Owners and admins also see the organization's split by tenant (with the unallocated lines).
  const manager = canManage(useMe().data);
  const byTenant = useSpend("organization", undefined, new URLSearchParams({ start: monthStart, granularity: "none", group_by: "tenant" }), start && manager);
  const { tenants } = useTenant();
  return (
    <section aria-labelledby="spend-overview">
      <h2 id="spend-overview">Spend of {tenantName ?? "the tenant"}, month to date</h2>
      <QueryState query={byDay}>
        {(report) => {
          const currency = currenciesOf(report.totals)[0] ?? "USD";
          const spent = report.totals.find((total) => total.currency === currency)?.cost ?? "0";
          const projection = forecast.data?.currency === currency ? forecast.data : undefined;
          const stacked = stackRows(report.rows, "service_name", currency);
          return (
            <>
              <Rendered mark="spend-rendered" />
              <dl className="cards">
                <div className="card stat" data-testid="spend-mtd">
                  <dt>Spent this month ({currency})</dt>
                  <dd title={spent}>{money(spent, currency)}</dd>
                </div>
                <div className="card stat" data-testid="spend-forecast">
                  <dt>Forecast for the month</dt>
                  {projection?.forecast ? (
                    <dd
                      title={`spent ${projection.spent} + recurring charges to come ${projection.recurring_remaining} + usage ${projection.usage_remaining} (${BASIS[projection.basis]})`}
                    >
                      {money(projection.forecast, currency)}
                    </dd>
                  ) : (
                    <dd className="muted small">{projection ? "Not yet: 3 days of history needed" : "…"}</dd>
                  )}
                </div>
                {report.unpriced.lines > 0 && (
                  <div className="card stat">
                    <dt>Usage lines without a price</dt>
                    <dd>
                      <Link to="/spend?scope=tenant">{report.unpriced.lines}</Link>
                    </dd>
                  </div>
                )}
              </dl>
              <div className="grid-2">
                <section className="card" aria-labelledby="by-day">
                  <h3 id="by-day">Spend by day, by service</h3>
                  {stacked.periods.length === 0 ? (
                    <Empty>No spend this month yet.</Empty>
                  ) : (
                    <SpendChart keys={stacked.keys} periods={stacked.periods} currency={currency} title="Spend by day this month" height={200} />
                  )}
                </section>
                <section className="card" aria-labelledby="forecast-by-day">
                  <h3 id="forecast-by-day">Forecast for the month</h3>
                  {projection?.forecast ? (
                    <>
                      <ForecastChart
                        points={forecastCurve(projection.rows, projection.data_through)}
                        currency={currency}
                        title="Spent and forecast, running total this month"
                        summary={`${money(projection.spent, currency)} spent${
                          projection.data_through ? ` through ${projection.data_through}` : ""
                        }; forecast ${money(projection.forecast, currency)}, 80 % interval ${money(projection.forecast_low ?? projection.forecast, currency)} to ${money(
                          projection.forecast_high ?? projection.forecast,
                          currency,
                        )}`}
                        height={200}
                      />
                      <p className="muted small" data-testid="forecast-explained">
                        {money(projection.spent, currency)} spent + {money(projection.recurring_remaining, currency)} of recurring charges to come +{" "}
                        {money(projection.usage_remaining, currency)} of usage at the {BASIS[projection.basis]}. Fees and purchases count once, when they are
                        charged; only usage is extrapolated. The band is the 80 % interval: {money(projection.forecast_low ?? projection.forecast, currency)} to{" "}
                        {money(projection.forecast_high ?? projection.forecast, currency)}, each day left at the 10th and 90th percentile of the days its rate
                        is read from.
                        {projection.data_through && (
                          <> Data through {projection.data_through}: days after it are expected at the run rate (a late bill is not read as zero).</>
                        )}
                      </p>
                    </>
                  ) : (
                    <Empty>The forecast starts once 3 days of spend are known.</Empty>
                  )}
                </section>
                <section className="card" aria-labelledby="top-services">
                  <h3 id="top-services">Top services</h3>
                  <QueryState query={byService}>
                    {(services) =>
                      services.rows.length === 0 ? (
                        <Empty>No spend this month yet.</Empty>
                      ) : (
                        <ol className="plain top">
                          {services.rows.slice(0, 6).map((row) => (
                            <li key={`${row.group.service_name}-${row.currency}`}>
                              <Link to={`/spend?scope=tenant&service_name=${encodeURIComponent(row.group.service_name ?? "")}`}>
                                {row.group.service_name ?? "(no service)"}
                              </Link>{" "}
                              <strong title={row.cost}>{money(row.cost, row.currency)}</strong>
                            </li>
                          ))}
                        </ol>
                      )
                    }
                  </QueryState>
                </section>
              </div>
            </>
          );
        }}
      </QueryState>
      {manager && (
        // Not a labelled region: its name would also answer the header's "Tenant" switcher by label.
        <div className="card">
          <h3>Top tenants of the organization, month to date</h3>
          <QueryState query={byTenant}>
            {(org) =>
              org.rows.length === 0 ? (
                <Empty>No spend in the organization this month yet.</Empty>
              ) : (
                <ol className="plain top">
                  {org.rows.slice(0, 6).map((row) => (
                    <li key={`${row.group.tenant}-${row.currency}`} data-testid="top-tenant">
                      <Link to="/spend?group_by=tenant">
                        {row.group.tenant === null ? "Unallocated" : (tenants.find((t) => t.id === row.group.tenant)?.name ?? row.group.tenant)}
                      </Link>{" "}
                      <strong title={row.cost}>{money(row.cost, row.currency)}</strong>
                    </li>
                  ))}
                </ol>
              )
            }
          </QueryState>
        </div>
      )}
      <section className="card" aria-labelledby="budget-burn">
        <h3 id="budget-burn">Budget burn</h3>
        <QueryState query={budgets}>
          {({ items }) =>
            items.length === 0 ? (
              <Empty>
                No budget yet: <Link to="/budgets">set one</Link>.
              </Empty>
            ) : (
              <ul className="plain budget-list">
                {items.map((b) => (
                  <li key={b.id}>
                    <Link to="/budgets">{b.name}</Link>{" "}
                    <span className="muted small">
                      {money(b.status.spent, b.currency)} of {money(b.amount, b.currency)}
                    </span>
                    <BudgetBurn budget={b} />
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
    </section>
  );
}

/** Read by the e2e suite: when the month's spend was first on screen. */
function Rendered({ mark }: { mark: string }) {
  useEffect(() => {
    if (performance.getEntriesByName(mark).length === 0) performance.mark(mark);
  }, [mark]);
  return null;
}
