import type { RepriceResponse, SpendReport } from "@cloudcost/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { saveBlob } from "../api/client";
import { type SpendScope, useSpend } from "../api/spend";
import { canManage, canWrite, useApp, useMe } from "../app-context";
import { SpendChart } from "../components/SpendChart";
import { Empty, ErrorNote, QueryState } from "../components/status";
import { formatNumber, money } from "../lib/format";
import { currenciesOf, DIMENSIONS, dimensionLabel, exportQuery, filtersOf, groupByOf, PRESETS, presetOf, spendQuery, stackRows } from "../lib/spend";
import { useTenant } from "../tenant";

/** The pricing API's reasons (UnresolvedReason), in words. */
const REASONS: Record<string, string> = {
  no_pricing_label: "the line names no price entry (no pricing label)",
  unknown_pricing_id: "the price entry it names does not exist",
  closed: "the price entry was closed before the line's time",
  not_yet_effective: "the price entry takes effect after the line's time",
  bucket_not_priced: "a token bucket of the line has no price (register one, then reprice)",
};
const reasonText = (reason: string) => REASONS[reason] ?? reason.replaceAll("_", " ");

export default function Spend() {
  const { api } = useApp();
  const me = useMe().data;
  const { tenantId, tenants } = useTenant();
  const [search, setSearch] = useSearchParams();
  const [now] = useState(() => new Date());
  const scope: SpendScope =
    search.get("scope") === "tenant" || search.get("scope") === "organization"
      ? (search.get("scope") as SpendScope)
      : canManage(me)
        ? "organization"
        : "tenant";
  const orgView = scope === "organization";
  const groupBy = groupByOf(search, orgView);
  const filters = filtersOf(search, orgView);
  const preset = presetOf(search);
  const chartQuery = useMemo(() => spendQuery(search, now, orgView), [search, now, orgView]);
  const tableQuery = useMemo(() => spendQuery(search, now, orgView, { granularity: "none" }), [search, now, orgView]);
  const chart = useSpend(scope, tenantId, chartQuery);
  const table = useSpend(scope, tenantId, tableQuery);
  const tenantName = tenants.find((t) => t.id === tenantId)?.name ?? "this tenant";
  const label = (dimension: string) => (value: string | null) => {
    if (dimension === "tenant") return value === null ? "Unallocated" : (tenants.find((t) => t.id === value)?.name ?? value);
    return value ?? "(none)";
  };

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(search);
    change(next);
    setSearch(next, { replace: true });
  };
  const set = (key: string, value: string | undefined) =>
    update((next) => {
      if (value) next.set(key, value);
      else next.delete(key);
    });
  const setGroup = (index: number, value: string) =>
    update((next) => {
      const list = [...groupBy];
      if (value) list[index] = value;
      else list.splice(index, 1);
      const clean = list.filter((v, i) => v && list.indexOf(v) === i);
      if (clean.length) next.set("group_by", clean.join(","));
      else next.delete("group_by");
    });

  const [exporting, setExporting] = useState<unknown>();
  const download = async () => {
    setExporting(undefined);
    const query = exportQuery(search, now, orgView);
    try {
      const blob = orgView
        ? await api.download(`/v1/organizations/${me?.organization.id}/spend/export`, { query })
        : await api.download("/v1/tenant/spend/export", { tenant: tenantId, query });
      saveBlob(blob, `focus-${query.get("start")}-${query.get("end") ?? now.toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      setExporting(error);
    }
  };

  return (
    <>
      <div className="title-row">
        <h1>Spend</h1>
        <button type="button" onClick={download} disabled={!orgView && !tenantId}>
          Download FOCUS CSV
        </button>
      </div>
      {exporting !== undefined && <ErrorNote error={exporting} title="Could not export" />}
      <section className="card filters" aria-label="View">
        <div className="filter-row">
          <label>
            Scope
            <select value={scope} onChange={(e) => set("scope", e.target.value)}>
              <option value="organization">Whole organization{canManage(me) ? " (with unallocated)" : ""}</option>
              <option value="tenant" disabled={!tenantId}>
                Tenant {tenantName}
              </option>
            </select>
          </label>
          <label>
            Range
            <select value={preset} onChange={(e) => set("preset", e.target.value === "mtd" ? undefined : e.target.value)}>
              {PRESETS.map(([key, text]) => (
                <option key={key} value={key}>
                  {text}
                </option>
              ))}
            </select>
          </label>
          {preset === "custom" && (
            <>
              <label>
                From
                <input type="date" value={search.get("start") ?? ""} onChange={(e) => set("start", e.target.value)} />
              </label>
              <label>
                To (inclusive)
                <input type="date" value={search.get("end") ?? ""} onChange={(e) => set("end", e.target.value)} />
              </label>
            </>
          )}
          <label>
            Per
            <select value={chartQuery.get("granularity") ?? "day"} onChange={(e) => set("granularity", e.target.value === "day" ? undefined : e.target.value)}>
              <option value="day">day</option>
              <option value="month">month</option>
              <option value="none">whole range</option>
            </select>
          </label>
          <label>
            Cost
            <select
              value={chartQuery.get("metric") ?? "billed_cost"}
              onChange={(e) => set("metric", e.target.value === "billed_cost" ? undefined : e.target.value)}
            >
              <option value="billed_cost">billed</option>
              <option value="effective_cost">effective (after discounts)</option>
              <option value="list_cost">list</option>
            </select>
          </label>
        </div>
        <div className="filter-row">
          {[0, 1].map((index) => (
            <label key={index}>
              {index === 0 ? "Group by (chart stacks by it)" : "Then by"}
              <select value={groupBy[index] ?? ""} onChange={(e) => setGroup(index, e.target.value)} disabled={index === 1 && groupBy.length === 0}>
                <option value="">{index === 0 ? "nothing (total)" : "nothing"}</option>
                {DIMENSIONS.filter(([key]) => orgView || key !== "tenant").map(([key, text]) => (
                  <option key={key} value={key} disabled={groupBy.includes(key) && groupBy[index] !== key}>
                    {text}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
        <FilterEditor
          orgView={orgView}
          tenants={tenants}
          filters={filters}
          label={(dimension, value) => label(dimension)(value)}
          onAdd={(key, value) =>
            update((next) => {
              const values = new Set((next.get(key) ?? "").split(",").filter(Boolean));
              values.add(value);
              next.set(key, [...values].join(","));
            })
          }
          onRemove={(key, value) =>
            update((next) => {
              const values = (next.get(key) ?? "").split(",").filter((v) => v && v !== value);
              if (values.length) next.set(key, values.join(","));
              else next.delete(key);
            })
          }
        />
      </section>
      {!orgView && !tenantId ? (
        <Empty>No tenant is in your reach yet.</Empty>
      ) : (
        <QueryState query={table}>
          {(report) => (
            <>
              <Totals report={report} />
              <Unpriced report={report} canReprice={canWrite(me) && !!tenantId} tenantId={tenantId} tenantName={tenantName} orgView={orgView} />
              <section className="card" aria-labelledby="spend-chart">
                <h2 id="spend-chart">Spend per {chartQuery.get("granularity") === "none" ? "range" : chartQuery.get("granularity")}</h2>
                <QueryState query={chart}>
                  {(c) => {
                    const currency = currenciesOf(c.totals)[0];
                    if (!currency) return <Empty>No spend in this range.</Empty>;
                    const stacked = stackRows(c.rows, groupBy[0], currency, label(groupBy[0] ?? ""));
                    return (
                      <>
                        <SpendChart keys={stacked.keys} periods={stacked.periods} currency={currency} title="Spend per period" />
                        {c.totals.length > 1 && <p className="muted">The chart shows {currency}; the table lists every currency.</p>}
                      </>
                    );
                  }}
                </QueryState>
              </section>
              <SpendTable report={report} groupBy={groupBy} label={label} />
            </>
          )}
        </QueryState>
      )}
    </>
  );
}

function Totals({ report }: { report: SpendReport }) {
  return (
    <dl className="cards">
      {report.totals.length === 0 ? (
        <div className="card stat" data-testid="spend-total">
          <dt>Total</dt>
          <dd>{money("0", "USD")}</dd>
        </div>
      ) : (
        report.totals.map((t) => (
          <div className="card stat" key={t.currency} data-testid="spend-total">
            <dt>Total {t.currency}</dt>
            <dd title={`${t.cost} ${t.currency}`}>{money(t.cost, t.currency)}</dd>
          </div>
        ))
      )}
      <div className="card stat">
        <dt>Range</dt>
        <dd className="small">
          {report.start.slice(0, 10)} → {report.end.slice(0, 16).replace("T", " ")} UTC
        </dd>
      </div>
    </dl>
  );
}

function Unpriced({
  report,
  canReprice,
  tenantId,
  tenantName,
  orgView,
}: {
  report: SpendReport;
  canReprice: boolean;
  tenantId: string | undefined;
  tenantName: string;
  orgView: boolean;
}) {
  const { api } = useApp();
  const queryClient = useQueryClient();
  const reprice = useMutation({
    mutationFn: () =>
      api.call<RepriceResponse>("/v1/tenant/spend/usage/reprice", { method: "POST", tenant: tenantId, body: { start: report.start, end: report.end } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["spend"] }),
  });
  if (report.unpriced.lines === 0 && !reprice.data) return null;
  return (
    <section className="card callout" aria-labelledby="unpriced">
      <h2 id="unpriced">Unpriced usage</h2>
      {report.unpriced.lines > 0 ? (
        <>
          <p>
            {formatNumber(report.unpriced.lines)} usage line{report.unpriced.lines === 1 ? " has no price and counts" : "s have no price and count"} in no
            total:
          </p>
          <ul>
            {Object.entries(report.unpriced.by_reason).map(([reason, n]) => (
              <li key={reason}>
                <strong>{formatNumber(n)}</strong> — {reasonText(reason)} (<code>{reason}</code>)
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>Every usage line of the range is priced.</p>
      )}
      {canReprice && report.unpriced.lines > 0 && (
        <p>
          <button type="button" onClick={() => reprice.mutate()} disabled={reprice.isPending}>
            Reprice {orgView ? `${tenantName}'s` : "the"} unpriced usage
          </button>{" "}
          <span className="muted">with the prices now registered, effective at each line's time.</span>
        </p>
      )}
      {reprice.data && (
        <p role="status">
          Repriced {reprice.data.repriced} line{reprice.data.repriced === 1 ? "" : "s"}; {reprice.data.still_unpriced} still without a price.
        </p>
      )}
      {reprice.error && <ErrorNote error={reprice.error} title="Could not reprice" />}
    </section>
  );
}

function SpendTable({ report, groupBy, label }: { report: SpendReport; groupBy: string[]; label: (dimension: string) => (value: string | null) => string }) {
  if (report.rows.length === 0) return <Empty>No spend in this range.</Empty>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (axe scrollable-region-focusable)
    <section className="table-wrap" aria-label="Spend by group" tabIndex={0}>
      <table>
        <caption className="sr-only">Spend of the range{groupBy.length ? ` by ${groupBy.map(dimensionLabel).join(" and ")}` : ""}</caption>
        <thead>
          <tr>
            {groupBy.map((g) => (
              <th scope="col" key={g}>
                {dimensionLabel(g)}
              </th>
            ))}
            {groupBy.length === 0 && <th scope="col">Spend</th>}
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col">Currency</th>
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row, i) => (
            <tr key={i}>
              {groupBy.map((g) => (
                <td key={g}>{label(g)(row.group[g] ?? null)}</td>
              ))}
              {groupBy.length === 0 && <td>Total</td>}
              <td className="num" title={row.cost}>
                {money(row.cost, row.currency)}
              </td>
              <td>{row.currency}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function FilterEditor({
  orgView,
  tenants,
  filters,
  label,
  onAdd,
  onRemove,
}: {
  orgView: boolean;
  tenants: { id: string; name: string }[];
  filters: [string, string[]][];
  label: (dimension: string, value: string) => string;
  onAdd(key: string, value: string): void;
  onRemove(key: string, value: string): void;
}) {
  const [dimension, setDimension] = useState<string>("service_name");
  const [tagKey, setTagKey] = useState("");
  const [value, setValue] = useState("");
  const add = (e: FormEvent) => {
    e.preventDefault();
    const key = dimension === "tag" ? `tag:${tagKey.trim()}` : dimension;
    if (!value.trim() || key === "tag:") return;
    onAdd(key, value.trim());
    setValue("");
  };
  return (
    <>
      <form className="filter-row" onSubmit={add} aria-label="Add a filter">
        <label>
          Filter on
          <select value={dimension} onChange={(e) => setDimension(e.target.value)}>
            {DIMENSIONS.filter(([key]) => orgView || key !== "tenant").map(([key, text]) => (
              <option key={key} value={key}>
                {text}
              </option>
            ))}
            <option value="tag">Tag…</option>
          </select>
        </label>
        {dimension === "tag" && (
          <label>
            Tag key
            <input value={tagKey} onChange={(e) => setTagKey(e.target.value)} required maxLength={256} />
          </label>
        )}
        {dimension === "tenant" ? (
          <label>
            Tenant
            <select value={value} onChange={(e) => setValue(e.target.value)} required>
              <option value="">pick a tenant</option>
              {tenants.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            Value
            <input value={value} onChange={(e) => setValue(e.target.value)} required maxLength={256} />
          </label>
        )}
        <button type="submit">Add filter</button>
      </form>
      {filters.length > 0 && (
        <ul className="chips" aria-label="Filters">
          {filters.flatMap(([key, values]) =>
            values.map((v) => (
              <li key={`${key}=${v}`} className="chip">
                {dimensionLabel(key)}: {label(key, v)}{" "}
                <button type="button" className="link" onClick={() => onRemove(key, v)} aria-label={`Remove filter ${dimensionLabel(key)} ${label(key, v)}`}>
                  ×
                </button>
              </li>
            )),
          )}
        </ul>
      )}
    </>
  );
}
