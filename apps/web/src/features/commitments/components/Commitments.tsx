import { useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Coverage } from "./Coverage";
import { Purchases } from "./Purchases";
import { lastDays } from "../commitments";
import { Utilization } from "./Utilization";

const RANGES = [7, 30, 90] as const;

/**
 * Savings Plans, Reserved Instances and committed-use discounts, read from the imported bills:
 * how much of each commitment is used, how much of the eligible usage commitments cover, and how
 * much more to commit to at each registered commitment rate.
 */
export default function Commitments() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const [days, setDays] = useState<number>(30);
  const range = lastDays(days, new Date());
  return (
    <>
      <h1>Commitments</h1>
      <p className="muted">
        From the cloud bills imported under Spend: usage priced as <em>Committed</em> is covered by a commitment; a commitment's <em>Unused</em> lines are what
        it cost without being used. See docs/commitments.md for every formula.
      </p>
      <label className="inline">
        Range{" "}
        <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {RANGES.map((d) => (
            <option key={d} value={d}>
              last {d} days
            </option>
          ))}
        </select>
      </label>
      {manager && <Utilization orgId={orgId} range={range} />}
      <Coverage orgId={orgId} range={range} manager={manager} />
      {manager && <Purchases orgId={orgId} />}
    </>
  );
}
