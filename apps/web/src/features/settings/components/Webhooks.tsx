import type { CreateWebhookResponse, WebhookEventType } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Checks } from "../../../shared/components/Checks";
import { SecretOnce } from "../../../shared/components/SecretOnce";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { useDeliveries, useWebhooks, type WebhookForm } from "../hooks";
import { DataTable, ScrollRegion } from "../../../shared/components/DataTable";

const EVENTS: [WebhookEventType, string][] = [
  ["budget.threshold_crossed", "a budget threshold is crossed"],
  ["anomaly.detected", "a spend anomaly is detected"],
  ["import.completed", "a FOCUS import completes"],
  ["dimension.applied", "a dimension version is applied to the ledger"],
];

/** The events as checkboxes: what happens, then the event's name. */
const EVENT_OPTIONS = EVENTS.map(([event, text]) => [event, <EventLabel key={event} text={text} event={event} />] as const);

function EventLabel({ text, event }: { text: string; event: string }) {
  return (
    <>
      {text} <code>{event}</code>
    </>
  );
}

export default function Webhooks() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const [form, setForm] = useState<WebhookForm>({
    url: "",
    description: "",
    events: EVENTS.map(([e]) => e),
  });
  const [created, setCreated] = useState<CreateWebhookResponse>();
  const [open, setOpen] = useState<string>();
  const {
    list: hooks,
    create,
    remove,
    toggle,
    ping,
  } = useWebhooks(orgId, canManage(me), {
    onCreated: (hook) => {
      setCreated(hook);
      setForm({ url: "", description: "", events: EVENTS.map(([e]) => e) });
    },
    onPinged: setOpen,
  });
  if (!canManage(me)) return <Empty>Only owners and admins manage webhooks.</Empty>;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(form);
  };
  return (
    <>
      <form className="card form" onSubmit={submit} aria-labelledby="new-hook">
        <h2 id="new-hook">New webhook</h2>
        <p className="muted">
          Events are POSTed as JSON, signed in <code>Webhook-Signature</code> with the secret shown once below, and retried with backoff for 24 hours.
        </p>
        <label>
          Receiver URL (https)
          <input type="url" required maxLength={2048} value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} />
        </label>
        <label>
          Description
          <input maxLength={500} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </label>
        <Checks legend="Send when" options={EVENT_OPTIONS} picked={form.events} onChange={(events) => setForm({ ...form, events })} />
        <button type="submit" className="primary" disabled={create.isPending || form.events.length === 0}>
          Register webhook
        </button>
        {create.error && <ErrorNote error={create.error} title="Could not register the webhook" />}
      </form>
      {created && (
        <SecretOnce key={created.secret} what="the signing secret" secret={created.secret} testId="webhook-secret" onDone={() => setCreated(undefined)} />
      )}
      <QueryState query={hooks}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No webhook yet.</Empty>
          ) : (
            <ul className="plain budget-list">
              {page.items.map((hook) => (
                <li key={hook.id} className="card" data-testid="webhook">
                  <div className="title-row">
                    <h3 className="url">{hook.url}</h3>
                    <span className="actions">
                      <button type="button" onClick={() => ping.mutate(hook.id)} disabled={ping.isPending}>
                        Send test ping<span className="sr-only"> to {hook.url}</span>
                      </button>{" "}
                      <button type="button" onClick={() => toggle.mutate(hook)}>
                        {hook.active ? "Pause" : "Resume"}
                        <span className="sr-only"> {hook.url}</span>
                      </button>{" "}
                      <button type="button" className="danger" onClick={() => window.confirm(`Delete the webhook to ${hook.url}?`) && remove.mutate(hook.id)}>
                        Delete<span className="sr-only"> {hook.url}</span>
                      </button>
                    </span>
                  </div>
                  <p className="muted small">
                    {hook.active ? "Active" : "Paused"} · {hook.events.join(", ")}
                    {hook.description ? ` · ${hook.description}` : ""} · created {formatDate(hook.created_at)}
                  </p>
                  <button type="button" className="link" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? undefined : hook.id)}>
                    {open === hook.id ? "Hide" : "Show"} delivery log<span className="sr-only"> of {hook.url}</span>
                  </button>
                  {open === hook.id && <Deliveries orgId={orgId} id={hook.id} />}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the webhook" />}
      {toggle.error && <ErrorNote error={toggle.error} title="Could not change the webhook" />}
      {ping.error && <ErrorNote error={ping.error} title="Could not send the test ping" />}
    </>
  );
}

function Deliveries({ orgId, id }: { orgId: string; id: string }) {
  const deliveries = useDeliveries(orgId, id);
  return (
    <QueryState query={deliveries}>
      {(page) =>
        page.items.length === 0 ? (
          <Empty>Nothing sent yet.</Empty>
        ) : (
          <ScrollRegion label="Delivery log">
            <DataTable caption="Deliveries, newest first" columns={["Event", "Created", "Status", "Attempts (HTTP status, time, error)"]}>
              {page.items.map((d) => (
                <tr key={d.id}>
                  <td>{d.type}</td>
                  <td>{formatDate(d.created_at)}</td>
                  <td data-testid="delivery-status">{d.status}</td>
                  <td>
                    {d.attempts.length === 0
                      ? "not tried yet"
                      : d.attempts
                          .map((a) => `#${a.attempt} ${a.status_code ?? "no answer"} in ${a.duration_ms} ms${a.error ? ` (${a.error})` : ""}`)
                          .join("; ")}
                  </td>
                </tr>
              ))}
            </DataTable>
          </ScrollRegion>
        )
      }
    </QueryState>
  );
}
