import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { useMeasuredWidth } from "../../../shared/hooks/use-measured-width";
import type { StackedPeriod } from "../spend";

const COLORS = ["#0a58ca", "#1a7f37", "#bc4c00", "#8250df", "#bf3989", "#0e7490", "#9a6700", "#57606a"];
const money = (currency: string) => new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 });

/**
 * Spend per period as stacked bars (one colour per series, with a legend in words); the chart's
 * label summarises the largest periods for screen readers, and the exact amounts are in the table.
 */
export function SpendChart({
  keys,
  periods,
  currency,
  title,
  height = 220,
}: {
  keys: string[];
  periods: StackedPeriod[];
  currency: string;
  title: string;
  height?: number;
}) {
  const [ref, width] = useMeasuredWidth<HTMLElement>();
  const left = 56;
  const bottom = 22;
  const top = 10;
  const plotHeight = height - bottom - 6;
  const max = Math.max(0, ...periods.map((p) => p.total));
  const x = scaleBand({ domain: periods.map((p) => p.period_start), range: [left, width - 4], padding: 0.2 });
  const y = scaleLinear({ domain: [0, max || 1], range: [plotHeight, top], nice: true });
  const fmt = money(currency);
  const ticks = y.ticks(4);
  const labelEvery = Math.max(1, Math.ceil(periods.length / Math.max(2, Math.floor((width - left) / 56))));
  const total = periods.reduce((sum, p) => sum + p.total, 0);
  const summary = `${title}: ${periods.length} period${periods.length === 1 ? "" : "s"}, ${fmt.format(total)} in all${
    keys.length > 1 ? `, stacked by ${keys.join(", ")}` : ""
  }`;
  return (
    <figure className="spend-chart" ref={ref}>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={summary} className="chart chart-wide">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={left} x2={width} y1={y(t)} y2={y(t)} className="grid-line" />
            <text x={left - 6} y={y(t)} textAnchor="end" dominantBaseline="middle" className="chart-label">
              {fmt.format(t)}
            </text>
          </g>
        ))}
        {periods.map((p, i) => {
          let base = 0;
          const px = x(p.period_start) ?? 0;
          return (
            <g key={p.period_start}>
              {keys.map((key, k) => {
                const value = p.values[key] ?? 0;
                if (value <= 0) return null;
                const barTop = y(base + value);
                const h = y(base) - barTop;
                base += value;
                return <Bar key={key} x={px} y={barTop} width={x.bandwidth()} height={Math.max(h, 0.5)} fill={COLORS[k % COLORS.length]} />;
              })}
              {i % labelEvery === 0 && (
                <text x={px + x.bandwidth() / 2} y={height - 6} textAnchor="middle" className="chart-label">
                  {p.period_start.slice(5, 10)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {keys.length > 1 && (
        <figcaption>
          <ul className="legend" aria-label="Legend">
            {keys.map((key, k) => (
              <li key={key}>
                <span className="swatch" style={{ background: COLORS[k % COLORS.length] }} aria-hidden="true" />
                {key}
              </li>
            ))}
          </ul>
        </figcaption>
      )}
    </figure>
  );
}
