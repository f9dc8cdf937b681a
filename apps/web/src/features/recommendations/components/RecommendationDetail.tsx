import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Loading } from "../../../shared/components/status";
import { age, formatDate, formatNumber, formatPercent, formatUsd } from "../../../shared/format";
import { ACTION_LABELS, actionOf, REASON_LABELS, type Recommendation } from "../recommendation";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

/**
 * Why a resource got its action: statistics and window, reasons, ranked options, where the prices
 * came from; `decision` (the page's) lets the team accept, dismiss or snooze it.
 */
export function RecommendationDetail({
  open,
  item,
  loading,
  onClose,
  decision,
}: {
  open: boolean;
  item: Recommendation | undefined;
  loading: boolean;
  onClose(): void;
  decision?: (item: Recommendation) => ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="sheet" aria-describedby={undefined}>
          <div className="sheet-head">
            <Dialog.Title>{item ? item.name || item.resource_id : "Resource"}</Dialog.Title>
            <Dialog.Close className="link">Close</Dialog.Close>
          </div>
          {item ? (
            <>
              <Detail item={item} />
              {decision?.(item)}
            </>
          ) : loading ? (
            <Loading />
          ) : (
            <p>This resource is not on the current page of results.</p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Detail({ item }: { item: Recommendation }) {
  const stats = item.stats;
  return (
    <div className="detail">
      <p>
        <span className={`action action-${actionOf(item)}`}>{ACTION_LABELS[actionOf(item)]}</span> {item.current_instance_type ?? item.instance_type ?? "—"}
        {item.recommended_instance_type ? ` → ${item.recommended_instance_type}` : ""}
        {item.savings_monthly_usd !== null && <> · saves {formatUsd(item.savings_monthly_usd)} a month</>}
      </p>
      <dl className="facts">
        <dt>Resource id</dt>
        <dd>{item.resource_id}</dd>
        <dt>Where</dt>
        <dd>{[item.provider, item.region, item.availability_zone].filter(Boolean).join(" · ") || "—"}</dd>
        <dt>Shape</dt>
        <dd>
          {formatNumber(item.cpu_cores)} vCPU · {formatNumber(item.ram_gb)} GB · {item.architecture ?? "—"} · {item.operating_system ?? "—"}
          {item.purchase_option ? ` · ${item.purchase_option.replace("_", " ")}` : ""}
        </dd>
        <dt>Monthly cost</dt>
        <dd>
          {formatUsd(item.current_monthly_cost_usd)} now, {formatUsd(item.recommended_monthly_cost_usd)} recommended
        </dd>
        <dt>Analyzed</dt>
        <dd>{formatDate(item.analyzed_at)}</dd>
      </dl>
      <h3>Utilization</h3>
      {stats ? (
        <dl className="facts">
          <dt>CPU p95 / max</dt>
          <dd>
            {formatPercent(stats.cpu_p95)} / {formatPercent(stats.cpu_max)}
          </dd>
          <dt>Memory p95</dt>
          <dd>{formatPercent(stats.memory_p95)}</dd>
          <dt>Samples</dt>
          <dd>{stats.samples}</dd>
          <dt>Window</dt>
          <dd>
            {formatDate(stats.window_start)} to {formatDate(stats.window_end)}
          </dd>
        </dl>
      ) : (
        <p className="muted">Not analyzed yet.</p>
      )}
      {item.finding_reasons && item.finding_reasons.length > 0 && (
        <>
          <h3>Why</h3>
          <ul>
            {item.finding_reasons.map((r) => (
              <li key={r}>{REASON_LABELS[r] ?? r}</li>
            ))}
          </ul>
        </>
      )}
      {item.options && item.options.length > 0 && (
        <>
          <h3 id="options-title">Options, best first</h3>
          <ScrollRegion labelledBy="options-title">
            <DataTable columns={["Type", num("Monthly"), num("Saves"), "Projected CPU / memory p95", "Risk", "Effort"]}>
              {item.options.map((o) => (
                <tr key={o.instance_type}>
                  <td>
                    {o.instance_type}{" "}
                    <span className="muted">
                      {formatNumber(o.cpu_cores)} vCPU · {formatNumber(o.ram_gb)} GB
                    </span>
                  </td>
                  <td className="num">{formatUsd(o.monthly_cost_usd)}</td>
                  <td className="num">{formatUsd(o.savings_monthly_usd)}</td>
                  <td>
                    {formatPercent(o.projected_cpu_p95)} / {formatPercent(o.projected_memory_p95)}
                  </td>
                  <td>
                    <span className={`risk risk-${o.performance_risk}`}>{o.performance_risk}</span>
                  </td>
                  <td>{o.migration_effort}</td>
                </tr>
              ))}
            </DataTable>
          </ScrollRegion>
        </>
      )}
      {item.price && (
        <>
          <h3>Prices</h3>
          <p>
            {item.price.basis === "effective" ? "Your effective prices" : "Catalog list prices"} from {item.price.source}
            {item.price.price_date && (
              <>
                , dated {formatDate(item.price.price_date)} ({age(item.price.price_date)})
              </>
            )}
            .
          </p>
        </>
      )}
    </div>
  );
}
