import { scaleLinear } from "@visx/scale";
import type { ReactNode } from "react";
import { useMeasuredWidth } from "../../../shared/hooks/use-measured-width";

/** An amount of `currency` in whole units ($1,250), for the y axis. */
export const wholeMoney = (currency: string) => new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 });

/**
 * The frame the spend charts share, at the width they are shown at: the plot starts `left` of the
 * y axis's labels, and `y` runs from 0 to `max` (at least 1) over the plot's height, 10 px from the top
 * and room for the x labels below.
 */
export function useChartFrame(height: number, max: number) {
  const [ref, width] = useMeasuredWidth<HTMLElement>();
  const left = 56;
  const bottom = 22;
  const top = 10;
  const y = scaleLinear({ domain: [0, max || 1], range: [height - bottom - 6, top], nice: true });
  /** Every how many of `count` points an x label is drawn (about 56 px apart, at least 2 labels). */
  const labelEvery = (count: number) => Math.max(1, Math.ceil(count / Math.max(2, Math.floor((width - left) / 56))));
  return { ref, width, height, left, y, labelEvery };
}

/**
 * A chart of the frame: the svg (an image with `label` for screen readers), its y grid of about
 * `ticks` lines labelled by `format`, the chart's own marks, and the legend's items below it.
 */
export function ChartFigure({
  frame,
  label,
  ticks,
  format,
  legend,
  testId,
  children,
}: {
  frame: ReturnType<typeof useChartFrame>;
  label: string;
  ticks: number;
  format: (value: number) => string;
  /** The legend's items (li), or none. */
  legend?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const { ref, width, height, left, y } = frame;
  return (
    <figure className="spend-chart" ref={ref} data-testid={testId}>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={label} className="chart chart-wide">
        {y.ticks(ticks).map((t) => (
          <g key={t}>
            <line x1={left} x2={width} y1={y(t)} y2={y(t)} className="grid-line" />
            <text x={left - 6} y={y(t)} textAnchor="end" dominantBaseline="middle" className="chart-label">
              {format(t)}
            </text>
          </g>
        ))}
        {children}
      </svg>
      {legend && (
        <figcaption>
          <ul className="legend" aria-label="Legend">
            {legend}
          </ul>
        </figcaption>
      )}
    </figure>
  );
}
