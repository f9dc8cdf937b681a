import { scaleBand } from "@visx/scale";
import { Bar } from "@visx/shape";
import type { StackedPeriod } from "../spend";
import { ChartFigure, useChartFrame, wholeMoney } from "./ChartFrame";

const COLORS = ["#0a58ca", "#1a7f37", "#bc4c00", "#8250df", "#bf3989", "#0e7490", "#9a6700", "#57606a"];

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
  const frame = useChartFrame(height, Math.max(0, ...periods.map((p) => p.total)));
  const { y } = frame;
  const x = scaleBand({ domain: periods.map((p) => p.period_start), range: [frame.left, frame.width - 4], padding: 0.2 });
  const fmt = wholeMoney(currency);
  const labelEvery = frame.labelEvery(periods.length);
  const total = periods.reduce((sum, p) => sum + p.total, 0);
  const summary = `${title}: ${periods.length} period${periods.length === 1 ? "" : "s"}, ${fmt.format(total)} in all${
    keys.length > 1 ? `, stacked by ${keys.join(", ")}` : ""
  }`;
  return (
    <ChartFigure
      frame={frame}
      label={summary}
      ticks={4}
      format={fmt.format}
      legend={
        keys.length > 1 &&
        keys.map((key, k) => (
          <li key={key}>
            <span className="swatch" style={{ background: COLORS[k % COLORS.length] }} aria-hidden="true" />
            {key}
          </li>
        ))
      }
    >
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
    </ChartFigure>
  );
}
