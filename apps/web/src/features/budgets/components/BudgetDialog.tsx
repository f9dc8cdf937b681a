import type { Budget } from "@cloudcost/contracts";
import * as Dialog from "@radix-ui/react-dialog";
import { type FormEvent, useState } from "react";
import { ErrorNote } from "../../../shared/components/status";
import { BUDGET_FILTERS, type BudgetForm, budgetBody, budgetToForm, emptyBudgetForm } from "../budget";
import { useSaveBudget } from "../hooks";
import { useMe } from "../../../app/app-context";
import { useDimensions } from "../../settings/dimension-hooks";

export function BudgetDialog({ tenantId, budget, onClose }: { tenantId: string; budget: Budget | undefined; onClose(): void }) {
  const [form, setForm] = useState<BudgetForm>(() => (budget ? budgetToForm(budget) : emptyBudgetForm()));
  const [problem, setProblem] = useState<string>();
  const save = useSaveBudget(tenantId, budget, onClose);
  const dimensions = useDimensions(useMe().data?.organization.id ?? "").list.data?.items ?? [];
  const dimensionKey =
    Object.keys(form.filters)
      .find((key) => key.startsWith("dimension:"))
      ?.slice("dimension:".length) ?? "";
  const setDimension = (key: string) => {
    const filters = Object.fromEntries(Object.entries(form.filters).filter(([name]) => !name.startsWith("dimension:")));
    if (key) filters[`dimension:${key}`] = "";
    setForm({ ...form, filters });
  };
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
                  <option value="contracted_cost">contracted cost</option>
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
              {dimensions.length > 0 && (
                <div className="row">
                  <label>
                    Dimension
                    <select value={dimensionKey} onChange={(e) => setDimension(e.target.value)}>
                      <option value="">none</option>
                      {dimensions.map((d) => (
                        <option key={d.key} value={d.key}>
                          {d.name}
                        </option>
                      ))}
                    </select>
                  </label>
                  {dimensionKey && (
                    <label>
                      {dimensions.find((d) => d.key === dimensionKey)?.name ?? dimensionKey} values (after its shared-cost splits; __unallocated__ for the
                      unallocated)
                      <input
                        value={form.filters[`dimension:${dimensionKey}`] ?? ""}
                        onChange={(e) => setForm({ ...form, filters: { ...form.filters, [`dimension:${dimensionKey}`]: e.target.value } })}
                      />
                    </label>
                  )}
                </div>
              )}
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
