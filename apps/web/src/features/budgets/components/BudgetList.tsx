import type { Budget } from "@cloudcost/contracts";
import { useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { BudgetBurn } from "./BudgetBurn";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { BudgetDialog } from "./BudgetDialog";
import { useBudgets, useDeleteBudget } from "../hooks";

const PERIODS = { monthly: "month", quarterly: "quarter", annual: "year" } as const;
export function BudgetList({ tenantId, tenantName }: { tenantId: string; tenantName: string }) {
  const me = useMe().data;
  const manager = canManage(me);
  const budgets = useBudgets(tenantId);
  const [editing, setEditing] = useState<Budget | "new">();
  const remove = useDeleteBudget(tenantId);
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
                    {b.status.period_end.slice(0, 10)}),{" "}
                    {b.status.forecast === null ? "no forecast yet (fewer than 3 days of history)" : `forecast ${money(b.status.forecast, b.currency)}`}
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
