// The demo's budget and anomaly: run after the demo spend is loaded (they are computed from it).

/**
 * A monthly budget of the tenant whose amount puts its forecast at 90 % (over the 80 % forecast
 * threshold, so `GET /api/v1/tenant/budgets` shows it in `warning`), then the anomaly detection
 * over the demo's days: the two-day EC2 spike of its FOCUS data is one range, found by the EC2 and
 * the total monitors; the weekly job and the support fee on the 1st are none. Without spend this
 * month the budget stays `ok` (and without 3 days of history it has no forecast).
 */
export async function loadAlerts(main, tenantId, log) {
  const tenant = tenantId;
  const budget = await main.createBudget({
    tenant,
    body: {
      name: "Production monthly",
      period: "monthly",
      amount: "1000000000",
      currency: "USD",
      thresholds: [
        { percent: 50, kind: "actual" },
        { percent: 80, kind: "actual" },
        { percent: 80, kind: "forecast" },
        { percent: 100, kind: "forecast" },
      ],
    },
  });
  const forecast = Number(budget.status.forecast ?? 0);
  if (forecast > 0) await main.updateBudget({ tenant, params: { id: budget.id }, body: { amount: (forecast / 0.9).toFixed(2) } });
  // The import scored its days already; a detection over the 60 days finds nothing more.
  await main.detectAnomalies({ tenant, body: { days: 60 } });
  const start = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
  const { items } = await main.listAnomalies({ tenant, query: { start } });
  const ranges = items.map((a) => `${a.monitor.service_name ?? "total"} ${a.start}..${a.end}`).join(", ");
  log(`  Production: budget ${budget.id} (forecast ${budget.status.forecast} USD), ${items.length} spend anomalies (${ranges})`);
  return { budget_id: budget.id, anomalies: items.length };
}
