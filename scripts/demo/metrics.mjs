// A business metric over the demo bill (docs/api.md, "Business metrics and unit cost"): `orders`,
// labelled by the `team` dimension (scripts/demo/dimensions.mjs), with each day's orders of the two
// teams that carry cost after the splits: `product` (the shop, the model usage labelled product) and
// `data` (the data API, the bill's non-EC2 services). Weekdays busier than weekends; the wobble
// depends on the day's date, so reloading on the same day gives the same amounts.

const DAY_MS = 86_400_000;

export const ORDERS = {
  unit: "orders",
  description: "Orders placed per day, by the team whose product took them",
  dimension: "team",
};

/** A usual weekday's orders per team. */
const BASE = { product: 2400, data: 420 };
/** Sunday .. Saturday: quieter weekends, a Monday and Friday peak. */
const WEEKDAY = [0.55, 1.08, 1.0, 0.97, 1.0, 1.12, 0.62];

/** The orders of the demo bill's days (the 60 complete days before `now`), per team: `{date, amount, label}` as the values operation takes them. */
export function demoOrderValues(now) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const values = [];
  for (let daysAgo = 60; daysAgo >= 1; daysAgo--) {
    const start = today - daysAgo * DAY_MS;
    const day = Math.floor(start / DAY_MS);
    const weekday = new Date(start).getUTCDay();
    Object.entries(BASE).forEach(([team, base], t) => {
      const amount = Math.round(base * WEEKDAY[weekday] * (1 + 0.08 * Math.sin(day * 1.3 + t * 2)));
      values.push({ date: new Date(start).toISOString().slice(0, 10), amount: String(amount), label: team });
    });
  }
  return values;
}

/** Stores the metric `orders` and its amounts (in place of any stored for those days), and says where to see the unit cost. */
export async function loadBusinessMetrics({ main, org, now, log }) {
  await main.putBusinessMetric({ params: { org_id: org, name: "orders" }, body: ORDERS });
  const values = demoOrderValues(now);
  // The operation takes JSON or CSV as its raw body: the client sends a JSON body as written.
  const stored = await main.postBusinessMetricValues({
    params: { org_id: org, name: "orders" },
    body: JSON.stringify({ mode: "replace", values }),
    contentType: "application/json",
  });
  const day = (offset) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10);
  const { totals } = await main.getOrganizationSpend({ params: { org_id: org }, query: { start: day(-30), end: day(0), granularity: "none", per: "orders" } });
  const perOrder = totals.map((t) => (t.unit_cost === null ? `no unit cost in ${t.currency}` : `${Number(t.unit_cost).toFixed(3)} ${t.currency}`)).join(", ");
  log(
    `  Business metric: orders by team (${stored.stored} daily amounts, ${stored.first_date} to ${stored.last_date}; the last 30 days cost ${perOrder} per order): Spend > Cost per > orders, grouped by Team (dimension), shows each team's cost per order; Settings > Business metrics lists the values`,
  );
}
