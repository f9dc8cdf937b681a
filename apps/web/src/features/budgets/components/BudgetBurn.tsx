import type { Budget } from "@cloudcost/contracts";
import { barScale, budgetDisplay } from "../budget";

/** A budget's burn bar: spent (filled), the forecast (a marker) and 100 % (a line), with its state in words. */
export function BudgetBurn({ budget }: { budget: Pick<Budget, "name" | "amount" | "status"> }) {
  const d = budgetDisplay(budget);
  const scale = barScale(d);
  const at = (percent: number) => `${Math.min(100, (percent / scale) * 100)}%`;
  return (
    <div className="burn">
      <div className="burn-bar" role="img" aria-label={`${budget.name}: ${d.description}`} data-testid="burn-bar">
        <div className={`burn-fill tone-${d.tone}`} style={{ width: at(d.spentPercent) }} />
        <div className="burn-forecast" style={{ left: at(d.forecastPercent) }} />
        <div className="burn-limit" style={{ left: at(100) }} />
      </div>
      <span className={`state state-${d.tone}`}>{d.label}</span>
    </div>
  );
}
