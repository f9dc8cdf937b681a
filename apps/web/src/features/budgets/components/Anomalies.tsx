import type { Anomaly } from "@cloudcost/contracts";
import { canWrite, useMe } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { useAnomalies } from "../hooks";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

const FEEDBACK = [
  ["yes", "Yes"],
  ["no", "No"],
  ["planned_activity", "Planned activity"],
] as const;
const REASONS: Record<Anomaly["reason"], string> = { new_service: "new service", spike: "spike" };
const MUTE_NOTE = "anomaly-mute-note";

/** The monitor in words: its service, the tenant's total, or a dimension's value (after its splits). */
function monitorName(a: Anomaly): string {
  if (a.monitor.kind === "dimension") return `${a.monitor.dimension} = ${a.monitor.value ?? "unallocated"}`;
  return a.monitor.kind === "total" ? "Total" : (a.monitor.service_name ?? "Total");
}
const rangeText = (a: Anomaly) => (a.start === a.end ? a.start : `${a.start} to ${a.end}`);

export function Anomalies({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const me = useMe().data;
  const writer = canWrite(me);
  const { anomalies, feedback, detect } = useAnomalies(tenantId);
  return (
    <section aria-labelledby="anomalies">
      <div className="title-row">
        <h2 id="anomalies">Spend anomalies of {tenantName}</h2>
        {writer && (
          <span className="analyze">
            <button type="button" onClick={() => detect.mutate()} disabled={detect.isPending}>
              Detect now
            </button>
            {detect.data && (
              <span role="status">
                {detect.data.detected} new{detect.data.extended > 0 ? `, ${detect.data.extended} extended` : ""}
              </span>
            )}
          </span>
        )}
      </div>
      <p className="muted">
        Days on which the usage cost of one service, of the tenant's total, or of one value of each of the organization's dimensions (after its shared-cost
        splits) stood well out of its usual level (the same weekday of the 4 weeks before, or the 14 days before), per currency; days at most 2 normal days
        apart form one anomaly. A day costing within 20 % of the same day of each of the 2 months before is a monthly job, not an anomaly; a new service is one
        anomaly while it stays above the floors in its first 14 days. Checked daily and after imports; purchases, fees, credits and tax are not scored.
      </p>
      {writer && (
        <p className="muted" id={MUTE_NOTE}>
          Was it a real problem? Answering “No” or “Planned activity” ends the anomaly and mutes its monitor (the service, the total or the dimension's value,
          in that currency) for 7 days, for days costing up to 1.2 times the anomaly's largest day: a larger spike is still reported.
        </p>
      )}
      {detect.error && <ErrorNote error={detect.error} title="Could not detect" />}
      <QueryState query={anomalies}>
        {({ items, start, end }) =>
          items.length === 0 ? (
            <Empty>
              No anomaly from {start} to {end}.
            </Empty>
          ) : (
            <ScrollRegion label="Anomalies">
              <DataTable
                caption="Anomalies, latest first"
                columns={["Days", "Monitor", "Reason", "Currency", num("Cost"), num("Expected"), num("Impact"), num("Score"), "Real problem?"]}
              >
                {items.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <time dateTime={a.start}>{a.start}</time>
                      {a.end !== a.start && (
                        <>
                          {" – "}
                          <time dateTime={a.end}>{a.end}</time>
                        </>
                      )}{" "}
                      <span className="muted">
                        ({a.days} {a.days === 1 ? "day" : "days"})
                      </span>
                    </td>
                    <td>{monitorName(a)}</td>
                    <td>{REASONS[a.reason]}</td>
                    <td>{a.currency}</td>
                    <td className="num">{money(a.cost, a.currency)}</td>
                    <td className="num">{money(a.expected, a.currency)}</td>
                    <td className="num">+{money(a.impact, a.currency)}</td>
                    <td className="num">{Number(a.score).toFixed(1)}</td>
                    <td>
                      {writer ? (
                        <fieldset className="feedback">
                          <legend className="sr-only">
                            Was the {monitorName(a)} anomaly of {rangeText(a)} a real problem?
                          </legend>
                          {FEEDBACK.map(([value, text]) => (
                            <button
                              key={value}
                              type="button"
                              aria-pressed={a.feedback === value}
                              aria-describedby={value === "yes" ? undefined : MUTE_NOTE}
                              className={a.feedback === value ? "pressed" : undefined}
                              disabled={feedback.isPending}
                              onClick={() => feedback.mutate({ id: a.id, value })}
                            >
                              {text}
                            </button>
                          ))}
                        </fieldset>
                      ) : (
                        (FEEDBACK.find(([value]) => value === a.feedback)?.[1] ?? "none yet")
                      )}
                    </td>
                  </tr>
                ))}
              </DataTable>
            </ScrollRegion>
          )
        }
      </QueryState>
      {feedback.error && <ErrorNote error={feedback.error} title="Could not record the feedback" />}
    </section>
  );
}
