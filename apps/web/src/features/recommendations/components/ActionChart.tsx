import type { ActionCounts } from "@cloudcost/contracts";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { ACTION_LABELS } from "../recommendation";

const KEYS: [keyof ActionCounts, keyof typeof ACTION_LABELS][] = [
  ["downsize", "DOWNSIZE"],
  ["upsize", "UPSIZE"],
  ["terminate", "TERMINATE"],
  ["noop", "NOOP"],
  ["no_recommendation", "NO_RECOMMENDATION"],
  ["pending", "PENDING"],
];

/** Resources per action as horizontal bars; the numbers are printed beside each bar (no hover needed). */
export function ActionChart({ counts }: { counts: ActionCounts }) {
  const width = 360;
  const rowHeight = 28;
  const labelWidth = 150;
  const height = KEYS.length * rowHeight;
  const max = Math.max(1, ...KEYS.map(([key]) => counts[key]));
  const y = scaleBand({ domain: KEYS.map(([key]) => key), range: [0, height], padding: 0.25 });
  const x = scaleLinear({ domain: [0, max], range: [0, width - labelWidth - 40] });
  const summary = KEYS.map(([key, action]) => `${ACTION_LABELS[action]} ${counts[key]}`).join(", ");
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={`Resources per action: ${summary}`} className="chart">
      {KEYS.map(([key, action]) => {
        const top = y(key) ?? 0;
        return (
          <g key={key}>
            <text x={0} y={top + y.bandwidth() / 2} dominantBaseline="middle" className="chart-label">
              {ACTION_LABELS[action]}
            </text>
            <Bar x={labelWidth} y={top} width={Math.max(counts[key] > 0 ? 2 : 0, x(counts[key]))} height={y.bandwidth()} className={`bar bar-${key}`} rx={3} />
            <text x={labelWidth + x(counts[key]) + 6} y={top + y.bandwidth() / 2} dominantBaseline="middle" className="chart-value">
              {counts[key]}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
