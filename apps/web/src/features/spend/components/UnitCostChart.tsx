import { scaleBand } from "@visx/scale";
import { unitMoney } from "../spend";
import { ChartFigure, useChartFrame } from "./ChartFrame";

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
  const values = points.map((p) => (p.unit_cost === null ? null : Number(p.unit_cost)));
  const known = values.filter((v): v is number => v !== null);
  const max = Math.max(0, ...known);
  const frame = useChartFrame(height, max);
  const { y } = frame;
  const x = scaleBand({ domain: points.map((p) => p.period_start), range: [frame.left, frame.width - 4], padding: 0.2 });
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
  const labelEvery = frame.labelEvery(points.length);
  const missing = points.length - known.length;
  const lowest = known.length ? Math.min(...known) : 0;
  const summary =
    known.length === 0
      ? `Cost per ${per}: no period of the range has an amount of the metric, so there is no unit cost to draw`
      : `Cost per ${per} over ${points.length} period${points.length === 1 ? "" : "s"}: from ${unitMoney(String(lowest), currency)} to ${unitMoney(String(max), currency)}${
          missing ? `; ${missing} period${missing === 1 ? " has" : "s have"} no unit cost (no amount of the metric, or 0)` : ""
        }`;
  return (
    <ChartFigure
      frame={frame}
      label={summary}
      ticks={3}
      format={short(currency, max).format}
      testId="unit-cost-chart"
      legend={
        <li>
          <span className="swatch swatch-unit-cost" aria-hidden="true" />
          Cost per {per}
        </li>
      }
    >
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
    </ChartFigure>
  );
}
