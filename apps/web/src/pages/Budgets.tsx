import type { Anomaly, Budget } from "@cloudcost/contracts";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useBudgets } from "../api/spend";
import { canManage, canWrite, useApp, useMe } from "../app-context";
import { BudgetBurn } from "../components/BudgetBurn";
import { Empty, ErrorNote, QueryState } from "../components/status";
import { money } from "../lib/format";
import { BUDGET_FILTERS, type BudgetForm, budgetBody, budgetToForm, emptyBudgetForm } from "../lib/budget";
import { useTenant } from "../tenant";

const PERIODS = { monthly: "month", quarterly: "quarter", annual: "year" } as const;
const FEEDBACK = [
  ["yes", "Real problem"],
  ["no", "Not a problem"],
  ["planned_activity", "Planned"],
] as const;

export default function Budgets() {
  const { tenantId, tenants } = useTenant();
  const tenantName = tenants.find((t) => t.id === tenantId)?.name ?? "this tenant";
  return (
    <>
      <h1>Budgets and anomalies</h1>
      {!tenantId ? (
        <Empty>No tenant is in your reach yet: ask an administrator to give you one.</Empty>
      ) : (
        <>
          <BudgetList tenantId={tenantId} tenantName={tenantName} />
          <Anomalies tenantId={tenantId} tenantName={tenantName} />
        </>
      )}
    </>
  );
}

function BudgetList({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const { api } = useApp();
  const me = useMe().data;
  const manager = canManage(me);
  const queryClient = useQueryClient();
  const budgets = useBudgets(tenantId);
  const [editing, setEditing] = useState<Budget | "new">();
  const remove = useMutation({
    mutationFn: (id: string) => api.call(`/v1/tenant/budgets/${id}`, { method: "DELETE", tenant: tenantId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["budgets", tenantId] }),
  });
  return (
    <section aria-labelledby="budgets">
      <div className="title-row">
        <h2 id="budgets">Budgets of {tenantName}</h2>
        {manager && (
          <button type="button" className="primary" onClick={() => setEditing("new")}>
            New budget
          </button>
        )}
      </div>
      <QueryState query={budgets}>
        {({ items }) =>
          items.length === 0 ? (
            <Empty>No budget yet{manager ? ": create one to be told before spend runs over." : "."}</Empty>
          ) : (
            <ul className="plain budget-list">
              {items.map((b) => (
                <li key={b.id} className="card budget" data-testid="budget">
                  <div className="title-row">
                    <h3>{b.name}</h3>
                    {manager && (
                      <span className="actions">
                        <button type="button" onClick={() => setEditing(b)}>
                          Edit<span className="sr-only"> {b.name}</span>
                        </button>{" "}
                        <button type="button" className="danger" onClick={() => window.confirm(`Delete the budget "${b.name}"?`) && remove.mutate(b.id)}>
                          Delete<span className="sr-only"> {b.name}</span>
                        </button>
                      </span>
                    )}
                  </div>
                  <p className="muted">
                    {money(b.status.spent, b.currency)} spent of {money(b.amount, b.currency)} this {PERIODS[b.period]} ({b.status.period_start.slice(0, 10)} →{" "}
                    {b.status.period_end.slice(0, 10)}), forecast {money(b.status.forecast, b.currency)}
                  </p>
                  <BudgetBurn budget={b} />
                  <p className="muted small">
                    Thresholds: {b.thresholds.length ? b.thresholds.map((t) => `${t.percent} % ${t.kind}`).join(", ") : "none"}
                    {Object.keys(b.filters).length > 0 &&
                      ` · counts ${Object.entries(b.filters)
                        .map(([k, v]) => `${k} ${(v ?? []).join(", ")}`)
                        .join("; ")}`}
                    {b.metric !== "billed_cost" && ` · ${b.metric.replace("_", " ")}`}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the budget" />}
      {editing && <BudgetDialog tenantId={tenantId} budget={editing === "new" ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </section>
  );
}

function BudgetDialog({ tenantId, budget, onClose }: { tenantId: string; budget: Budget | undefined; onClose(): void }) {
  const { api } = useApp();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<BudgetForm>(() => (budget ? budgetToForm(budget) : emptyBudgetForm()));
  const [problem, setProblem] = useState<string>();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      budget
        ? api.call<Budget>(`/v1/tenant/budgets/${budget.id}`, { method: "PATCH", tenant: tenantId, body })
        : api.call<Budget>("/v1/tenant/budgets", { method: "POST", tenant: tenantId, body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["budgets", tenantId] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = budgetBody(form);
    if ("error" in result) {
      setProblem(result.error);
      return;
    }
    setProblem(undefined);
    save.mutate(result.body);
  };
  const setThreshold = (i: number, change: Partial<BudgetForm["thresholds"][number]>) =>
    setForm({ ...form, thresholds: form.thresholds.map((t, j) => (j === i ? { ...t, ...change } : t)) });
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="sheet" aria-describedby={undefined}>
          <div className="sheet-head">
            <Dialog.Title>{budget ? `Edit ${budget.name}` : "New budget"}</Dialog.Title>
            <Dialog.Close className="link">Close</Dialog.Close>
          </div>
          <form className="form" onSubmit={submit} aria-label="Budget">
            <label>
              Name
              <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
            </label>
            <div className="row">
              <label>
                Amount
                <input required inputMode="decimal" value={form.amount} onChange={(e) => setForm({ ...form, amount: e.target.value })} />
              </label>
              <label>
                Currency
                <input required maxLength={3} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value })} />
              </label>
            </div>
            <div className="row">
              <label>
                Period
                <select value={form.period} onChange={(e) => setForm({ ...form, period: e.target.value as BudgetForm["period"] })}>
                  <option value="monthly">monthly</option>
                  <option value="quarterly">quarterly</option>
                  <option value="annual">annual</option>
                </select>
              </label>
              <label>
                Counts
                <select value={form.metric} onChange={(e) => setForm({ ...form, metric: e.target.value as BudgetForm["metric"] })}>
                  <option value="billed_cost">billed cost</option>
                  <option value="effective_cost">effective cost</option>
                  <option value="list_cost">list cost</option>
                </select>
              </label>
            </div>
            <fieldset>
              <legend>Thresholds (notify once per period)</legend>
              {form.thresholds.length === 0 && <p className="muted">No threshold: the budget only shows its burn.</p>}
              {form.thresholds.map((t, i) => (
                <div className="row threshold" key={i}>
                  <label>
                    Threshold {i + 1}, percent of the budget
                    <input required inputMode="decimal" value={t.percent} onChange={(e) => setThreshold(i, { percent: e.target.value })} />
                  </label>
                  <label>
                    Threshold {i + 1} reached by
                    <select value={t.kind} onChange={(e) => setThreshold(i, { kind: e.target.value as "actual" | "forecast" })}>
                      <option value="actual">actual spend</option>
                      <option value="forecast">forecast</option>
                    </select>
                  </label>
                  <button type="button" className="link" onClick={() => setForm({ ...form, thresholds: form.thresholds.filter((_, j) => j !== i) })}>
                    Remove threshold {i + 1}
                  </button>
                </div>
              ))}
              {form.thresholds.length < 10 && (
                <button type="button" onClick={() => setForm({ ...form, thresholds: [...form.thresholds, { percent: "100", kind: "actual" }] })}>
                  Add threshold
                </button>
              )}
            </fieldset>
            <fieldset>
              <legend>Count only (values separated by commas; empty = all)</legend>
              <div className="row">
                {BUDGET_FILTERS.map(([key, text]) => (
                  <label key={key}>
                    {text}
                    <input value={form.filters[key] ?? ""} onChange={(e) => setForm({ ...form, filters: { ...form.filters, [key]: e.target.value } })} />
                  </label>
                ))}
              </div>
            </fieldset>
            {problem && (
              <p className="error" role="alert">
                {problem}
              </p>
            )}
            {save.error && <ErrorNote error={save.error} title="Could not save the budget" />}
            <button type="submit" className="primary" disabled={save.isPending}>
              {budget ? "Save budget" : "Create budget"}
            </button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Anomalies({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const { api } = useApp();
  const me = useMe().data;
  const writer = canWrite(me);
  const queryClient = useQueryClient();
  const anomalies = useQuery({
    queryKey: ["anomalies", tenantId],
    queryFn: () => api.call<{ start: string; end: string; items: Anomaly[] }>("/v1/tenant/spend/anomalies", { tenant: tenantId }),
  });
  const feedback = useMutation({
    mutationFn: ({ id, value }: { id: string; value: string }) =>
      api.call<Anomaly>(`/v1/tenant/spend/anomalies/${id}`, { method: "PATCH", tenant: tenantId, body: { feedback: value } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["anomalies", tenantId] }),
  });
  const detect = useMutation({
    mutationFn: () => api.call<{ detected: number }>("/v1/tenant/spend/anomalies/detect", { method: "POST", tenant: tenantId, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["anomalies", tenantId] }),
  });
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
