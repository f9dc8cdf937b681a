import { canWrite, useMe } from "../../app-context";
import { Empty, ErrorNote, QueryState } from "../../components/status";
import { money } from "../../lib/format";
import { useAnomalies } from "./useBudgets";

const FEEDBACK = [
  ["yes", "Real problem"],
  ["no", "Not a problem"],
  ["planned_activity", "Planned"],
] as const;

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
            {detect.data && <span role="status">{detect.data.detected} new</span>}
          </span>
        )}
      </div>
      <p className="muted">A day whose cost of one service stood well out of the 14 days before it (checked daily).</p>
      {detect.error && <ErrorNote error={detect.error} title="Could not detect" />}
      <QueryState query={anomalies}>
        {({ items, start, end }) =>
          items.length === 0 ? (
            <Empty>
              No anomaly from {start} to {end}.
            </Empty>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (axe scrollable-region-focusable)
            <section className="table-wrap" aria-label="Anomalies" tabIndex={0}>
              <table>
                <caption className="sr-only">Anomalies, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Service</th>
                    <th scope="col" className="num">
                      Cost
                    </th>
                    <th scope="col" className="num">
                      Expected
                    </th>
                    <th scope="col" className="num">
                      Impact
                    </th>
                    <th scope="col" className="num">
                      Score
                    </th>
                    <th scope="col">Feedback</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((a) => (
                    <tr key={a.id}>
                      <td>{a.day}</td>
                      <td>{a.service_name}</td>
                      <td className="num">{money(a.cost, "USD")}</td>
                      <td className="num">{money(a.expected, "USD")}</td>
                      <td className="num">+{money(a.impact, "USD")}</td>
                      <td className="num">{Number(a.score).toFixed(1)}</td>
                      <td>
                        {writer ? (
                          <fieldset className="feedback">
                            <legend className="sr-only">
                              Feedback on {a.service_name} {a.day}
                            </legend>
                            {FEEDBACK.map(([value, text]) => (
                              <button
                                key={value}
                                type="button"
                                aria-pressed={a.feedback === value}
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
                </tbody>
              </table>
            </section>
          )
        }
      </QueryState>
      {feedback.error && <ErrorNote error={feedback.error} title="Could not record the feedback" />}
    </section>
  );
}
