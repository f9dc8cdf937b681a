import type { CommitmentRecommendation } from "@cloudcost/contracts";
import { DataTable } from "../../../shared/components/DataTable";

type Point = NonNullable<CommitmentRecommendation["savings_curve"]>[number];

const W = 320;
const H = 120;

/**
 * Monthly savings against the hourly commitment, as the API computed them with the same formula as
 * the recommendation (only the API holds the hourly series); the recommended point is marked. A
 * table gives the same points to screen readers.
 */
export function SavingsCurve({ points, recommended }: { points: Point[]; recommended: string }) {
  if (points.length < 2) return null;
  const xs = points.map((p) => Number(p.hourly_commitment));
  const ys = points.map((p) => Number(p.monthly_savings));
  const xMax = Math.max(...xs) || 1;
  const yMin = Math.min(0, ...ys);
  const yMax = Math.max(...ys, 0) || 1;
  const x = (v: number) => (v / xMax) * W;
  const y = (v: number) => H - ((v - yMin) / (yMax - yMin)) * H;
  const path = xs.map((v, i) => `${i === 0 ? "M" : "L"}${x(v).toFixed(1)},${y(ys[i]).toFixed(1)}`).join(" ");
  const best = points.find((p) => p.hourly_commitment === recommended);
  return (
    <figure className="curve">
      <svg viewBox={`-4 -4 ${W + 8} ${H + 8}`} role="img" aria-label={`Savings curve: the most savings at ${recommended} USD per hour`}>
        <line x1={0} x2={W} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.3} />
        <path d={path} fill="none" stroke="currentColor" strokeWidth={2} />
        {best && <circle cx={x(Number(best.hourly_commitment))} cy={y(Number(best.monthly_savings))} r={4} />}
      </svg>
      <figcaption className="muted">Monthly savings (USD) by hourly commitment (USD/h), from 0 to twice the recommendation.</figcaption>
      <details>
        <summary>Curve points</summary>
        <DataTable caption="Savings curve points" captionVisible columns={["USD per hour", "Monthly savings"]}>
          {points.map((p) => (
            <tr key={p.hourly_commitment}>
              <td>{p.hourly_commitment}</td>
              <td>{p.monthly_savings}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
