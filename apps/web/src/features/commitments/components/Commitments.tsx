import { useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Coverage } from "./Coverage";
import { Purchases } from "./Purchases";
import { addDays, lastDays, rangeOfDays } from "../commitments";
import { Utilization } from "./Utilization";

const PRESETS = [7, 30, 90] as const;

/**
 * Savings Plans, Reserved Instances and committed-use discounts, read from the imported bills:
 * how much of each commitment is used and what it saved, how much of the eligible usage
 * commitments cover, and how much more to commit to at each registered commitment rate. Any range
 * of days (an imported older bill included), with the last 7, 30 or 90 days a click away.
 */
export default function Commitments() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const [range, setRange] = useState(() => lastDays(30, new Date()));
  const [draft, setDraft] = useState(() => ({ from: range.start, to: addDays(range.end, -1) }));
  const [error, setError] = useState<string | null>(null);
  const choose = (from: string, to: string) => {
    setDraft({ from, to });
    const next = rangeOfDays(from, to);
    if ("error" in next) setError(next.error);
    else {
      setError(null);
      setRange(next);
    }
  };
  const preset = (days: number) => {
    const next = lastDays(days, new Date());
    choose(next.start, addDays(next.end, -1));
  };
  return (
    <>
      <h1>Commitments</h1>
      <p className="muted">
        From the cloud bills imported under Spend: usage priced as <em>Committed</em> is covered by a commitment; a commitment's <em>Unused</em> lines are what
        it cost without being used. See docs/commitments.md for every formula.
      </p>
      <fieldset className="inline">
        <legend>Range (UTC days, both included)</legend>
        <label>
          From <input type="date" value={draft.from} onChange={(e) => choose(e.target.value, draft.to)} />
        </label>{" "}
        <label>
          To <input type="date" value={draft.to} onChange={(e) => choose(draft.from, e.target.value)} />
        </label>{" "}
        {PRESETS.map((days) => (
          <button key={days} type="button" className="link" onClick={() => preset(days)}>
            Last {days} days
          </button>
        ))}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </fieldset>
      {manager && <Utilization orgId={orgId} range={range} />}
      <Coverage orgId={orgId} range={range} manager={manager} />
      {manager && <Purchases orgId={orgId} />}
    </>
  );
}
