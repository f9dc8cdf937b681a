import { type FormEvent, useState } from "react";
import type { RecommendationState } from "@cloudcost/contracts";
import { canWrite, useMe } from "../../../app/app-context";
import { ErrorNote } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { type Recommendation, STATE_LABELS } from "../recommendation";
import { useDecision } from "../hooks";

const DAY = 86_400_000;

/**
 * What the team decided about a recommendation: accept it, dismiss it or snooze it (with a reason),
 * or open it again. Dismissed and snoozed recommendations still count in the summary's actions but
 * not in its potential savings; a new analysis that changes the advice opens them again.
 */
export function RecommendationDecision({ tenantId, item }: { tenantId: string; item: Recommendation }) {
  const me = useMe().data;
  const [reason, setReason] = useState(item.state_reason ?? "");
  const [until, setUntil] = useState(() => new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10));
  const decide = useDecision(tenantId, item.resource_id);
  const state = decide.data?.state ?? item.state;
  const snoozedUntil = decide.data ? decide.data.snoozed_until : item.snoozed_until;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const pressed = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    decide.mutate({ state: (pressed?.value ?? "accepted") as RecommendationState, reason, snoozedUntil: `${until}T00:00:00.000Z` });
  };
  return (
    <section aria-labelledby="decision-title">
      <h3 id="decision-title">Decision</h3>
      <p role="status">
        {STATE_LABELS[state]}
        {state === "snoozed" && snoozedUntil ? ` until ${formatDate(snoozedUntil)}` : ""}
        {state !== "open" && (decide.data?.state_reason ?? item.state_reason) ? `: ${decide.data?.state_reason ?? item.state_reason}` : ""}
      </p>
      {item.action !== null && canWrite(me) && (
        <form className="decision" onSubmit={submit}>
          <label>
            Reason (optional)
            <textarea value={reason} maxLength={1000} rows={2} onChange={(e) => setReason(e.target.value)} />
          </label>
          <label>
            Snooze until
            <input type="date" value={until} min={new Date(Date.now() + DAY).toISOString().slice(0, 10)} onChange={(e) => setUntil(e.target.value)} />
          </label>
          <div className="button-row">
            <button type="submit" value="accepted" disabled={decide.isPending}>
              Accept
            </button>
            <button type="submit" value="dismissed" disabled={decide.isPending}>
              Dismiss
            </button>
            <button type="submit" value="snoozed" disabled={decide.isPending}>
              Snooze
            </button>
            {state !== "open" && (
              <button type="submit" value="open" className="link" disabled={decide.isPending}>
                Open again
              </button>
            )}
          </div>
        </form>
      )}
      {decide.error && <ErrorNote error={decide.error} title="The decision was not recorded" />}
    </section>
  );
}
