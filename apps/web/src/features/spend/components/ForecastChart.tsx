import { scaleLinear } from "@visx/scale";
import type { ForecastPoint } from "../spend";
import { ChartFigure, useChartFrame, wholeMoney } from "./ChartFrame";

/**
 * The period's spend as a running total: a solid line for what was spent up to the last day with
 * data, a dashed line for the forecast, and its 80 % interval as a shaded band from the first day
 * left to the period's end. The chart's label says the same in words.
 */
export function ForecastChart({
  points,
  currency,
  title,
  summary,
  height = 200,
}: {
  points: ForecastPoint[];
  currency: string;
  title: string;
  /** The figures in words (spent, forecast and its interval), for screen readers. */
  summary: string;
  height?: number;
}) {
  const frame = useChartFrame(height, Math.max(0, ...points.map((p) => p.high)));
  const { width, y } = frame;
  const x = scaleLinear({ domain: [0, Math.max(1, points.length - 1)], range: [frame.left, width - 8] });
  const line = (values: [number, number][]) => values.map(([i, v], k) => `${k === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const spent = points.flatMap((p, i): [number, number][] => (p.spent === null ? [] : [[i, p.spent]]));
  // The forecast starts where the spend ends (or at the first day, without data in the period).
  const firstLeft = points.findIndex((p) => p.expected);
  const from = firstLeft <= 0 ? 0 : firstLeft - 1;
  const ahead = firstLeft < 0 ? [] : points.slice(from).map((p, k) => ({ i: from + k, p }));
  const band =
    ahead.length > 1
      ? `${line(ahead.map(({ i, p }) => [i, p.high]))} ${ahead
          .slice()
          .reverse()
          .map(({ i, p }) => `L${x(i).toFixed(1)},${y(p.low).toFixed(1)}`)
          .join(" ")} Z`
      : null;
  const labelEvery = frame.labelEvery(points.length);
  return (
    <ChartFigure
      frame={frame}
      label={`${title}: ${summary}`}
      ticks={4}
      format={wholeMoney(currency).format}
      legend={
        <>
          <li>
            <span className="swatch swatch-spent" aria-hidden="true" />
            Spent
          </li>
          <li>
            <span className="swatch swatch-forecast" aria-hidden="true" />
            Forecast
          </li>
          <li>
            <span className="swatch swatch-band" aria-hidden="true" />
            80 % interval
          </li>
        </>
      }
    >
      {band && <path d={band} className="forecast-band" data-testid="forecast-band" />}
      {ahead.length > 1 && <path d={line(ahead.map(({ i, p }) => [i, p.mid]))} className="forecast-line" fill="none" data-testid="forecast-line" />}
      {spent.length > 0 && <path d={line(spent)} className="spent-line" fill="none" data-testid="spent-line" />}
      {points.map((p, i) =>
        i % labelEvery === 0 ? (
          <text key={p.day} x={x(i)} y={height - 6} textAnchor="middle" className="chart-label">
            {p.day.slice(5, 10)}
          </text>
        ) : null,
      )}
    </ChartFigure>
  );
}
