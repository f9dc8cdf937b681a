import type { CreateWebhookResponse, Webhook, WebhookEventType } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { canManage, useApp, useMe } from "../../../app/app-context";
import { SecretOnce } from "../../../shared/components/SecretOnce";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { settingsKeys } from "../keys";

const EVENTS: [WebhookEventType, string][] = [
  ["budget.threshold_crossed", "a budget threshold is crossed"],
  ["anomaly.detected", "a spend anomaly is detected"],
  ["import.completed", "a FOCUS import completes"],
];

export default function Webhooks() {
  const { client } = useApp();
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const queryClient = useQueryClient();
  const hooks = useQuery({
    queryKey: settingsKeys.webhooks(orgId),
    queryFn: () => client.main.listWebhooks({ params: { org_id: orgId }, query: { limit: 100 } }),
    enabled: canManage(me) && !!orgId,
  });
  const [form, setForm] = useState<{ url: string; description: string; events: WebhookEventType[] }>({
    url: "",
    description: "",
    events: EVENTS.map(([e]) => e),
  });
  const [created, setCreated] = useState<CreateWebhookResponse>();
  const [open, setOpen] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.webhooks(orgId) });
  const create = useMutation({
    mutationFn: () =>
      client.main.createWebhook({
        params: { org_id: orgId },
        body: { url: form.url.trim(), events: form.events, ...(form.description.trim() ? { description: form.description.trim() } : {}) },
      }),
    onSuccess: (hook) => {
      setCreated(hook);
      setForm({ url: "", description: "", events: EVENTS.map(([e]) => e) });
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => client.main.deleteWebhook({ params: { org_id: orgId, id } }), onSuccess: refresh });
  const toggle = useMutation({
    mutationFn: (hook: Webhook) => client.main.updateWebhook({ params: { org_id: orgId, id: hook.id }, body: { active: !hook.active } }),
    onSuccess: refresh,
  });
  const ping = useMutation({
    mutationFn: (id: string) => client.main.testWebhook({ params: { org_id: orgId, id } }),
    onSuccess: (_, id) => {
      setOpen(id);
      queryClient.invalidateQueries({ queryKey: settingsKeys.deliveries(id) });
    },
  });
  if (!canManage(me)) return <Empty>Only owners and admins manage webhooks.</Empty>;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
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
        <fieldset className="checks">
          <legend>Send when</legend>
          {EVENTS.map(([event, text]) => (
            <label key={event}>
              <input
                type="checkbox"
                checked={form.events.includes(event)}
                onChange={(e) => setForm({ ...form, events: e.target.checked ? [...form.events, event] : form.events.filter((x) => x !== event) })}
              />
              {text} <code>{event}</code>
            </label>
          ))}
        </fieldset>
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
  const { client } = useApp();
  const deliveries = useQuery({
    queryKey: settingsKeys.deliveries(id),
    queryFn: () => client.main.listWebhookDeliveries({ params: { org_id: orgId, id }, query: { limit: 50 } }),
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "pending") ? 2000 : false),
  });
  return (
    <QueryState query={deliveries}>
      {(page) =>
        page.items.length === 0 ? (
          <Empty>Nothing sent yet.</Empty>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (axe scrollable-region-focusable)
          <section className="table-wrap" aria-label="Delivery log" tabIndex={0}>
            <table>
              <caption className="sr-only">Deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Created</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts (HTTP status, time, error)</th>
                </tr>
              </thead>
              <tbody>
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
              </tbody>
            </table>
          </section>
        )
      }
    </QueryState>
  );
}
