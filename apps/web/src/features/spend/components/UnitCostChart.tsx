import { scaleBand, scaleLinear } from "@visx/scale";
import { useMeasuredWidth } from "../../../shared/hooks/use-measured-width";
import { unitMoney } from "../spend";

export interface UnitCostPoint {
  period_start: string;
  /** The API's unit cost of the period (a decimal string), or null when the metric holds no amount (or 0) for it. */
  unit_cost: string | null;
}

const short = (currency: string, max: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, ...(max >= 10 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 }) });

/**
 * The unit cost per period as a line under the spend bars (same periods, own axis); periods
 * without a unit cost break the line. The chart's label says the figures in words, and the exact
 * unit costs are in the table (whole range) and the API.
 */
export function UnitCostChart({ points, currency, per, height = 160 }: { points: UnitCostPoint[]; currency: string; per: string; height?: number }) {
  const [ref, width] = useMeasuredWidth<HTMLElement>();
  const left = 56;
  const bottom = 22;
  const top = 10;
  const plotHeight = height - bottom - 6;
  const values = points.map((p) => (p.unit_cost === null ? null : Number(p.unit_cost)));
  const known = values.filter((v): v is number => v !== null);
  const max = Math.max(0, ...known);
  const x = scaleBand({ domain: points.map((p) => p.period_start), range: [left, width - 4], padding: 0.2 });
  const y = scaleLinear({ domain: [0, max || 1], range: [plotHeight, top], nice: true });
  const fmt = short(currency, max);
  const ticks = y.ticks(3);
  const cx = (p: UnitCostPoint) => (x(p.period_start) ?? 0) + x.bandwidth() / 2;
  // One path per run of periods with a unit cost: a period without one breaks the line.
  let d = "";
  let open = false;
  points.forEach((p, i) => {
    const v = values[i];
    if (v === null || v === undefined) {
      open = false;
      return;
    }
    d += `${open ? "L" : "M"}${cx(p).toFixed(1)},${y(v).toFixed(1)} `;
    open = true;
  });
  const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(2, Math.floor((width - left) / 56))));
  const missing = points.length - known.length;
  const lowest = known.length ? Math.min(...known) : 0;
  const summary =
    known.length === 0
      ? `Cost per ${per}: no period of the range has an amount of the metric, so there is no unit cost to draw`
      : `Cost per ${per} over ${points.length} period${points.length === 1 ? "" : "s"}: from ${unitMoney(String(lowest), currency)} to ${unitMoney(String(max), currency)}${
          missing ? `; ${missing} period${missing === 1 ? " has" : "s have"} no unit cost (no amount of the metric, or 0)` : ""
        }`;
  return (
    <figure className="spend-chart" ref={ref} data-testid="unit-cost-chart">
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={summary} className="chart chart-wide">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={width} y1={y(t)} y2={y(t)} className="grid-line" />
            <text x={left - 6} y={y(t)} textAnchor="end" dominantBaseline="middle" className="chart-label">
              {fmt.format(t)}
            </text>
          </g>
        ))}
        {d && <path d={d.trim()} className="unit-cost-line" fill="none" data-testid="unit-cost-line" />}
        {points.map((p, i) => {
          const v = values[i];
          return v === null || v === undefined ? null : <circle key={p.period_start} cx={cx(p)} cy={y(v)} r={2.5} className="unit-cost-point" />;
        })}
        {points.map((p, i) =>
          i % labelEvery === 0 ? (
            <text key={`label-${p.period_start}`} x={cx(p)} y={height - 6} textAnchor="middle" className="chart-label">
              {p.period_start.slice(5, 10)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <ul className="legend" aria-label="Legend">
          <li>
            <span className="swatch swatch-unit-cost" aria-hidden="true" />
            Cost per {per}
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
