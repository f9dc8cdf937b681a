import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { useAnalyze, useRecommendations, useSummary } from "../hooks";
import { canManage, useMe } from "../../../app/app-context";
import { SummaryCards } from "./SummaryCards";
import { Empty, ErrorNote, Loading, QueryState } from "../../../shared/components/status";
import { apiQuery, type FilterKey, LIST_KEYS, SUMMARY_KEYS, toggled, withFilter } from "../filters";
import { listValue } from "../../../shared/url-query";
import { formatUsd } from "../../../shared/format";
import { ACTION_LABELS, ACTIONS, actionOf, STATE_LABELS } from "../recommendation";
import { useTenant } from "../../../app/tenant";
import { RecommendationDecision } from "./RecommendationDecision";
import { RecommendationDetail } from "./RecommendationDetail";
import { DataTable, num } from "../../../shared/components/DataTable";

const TEXT_FILTERS: [FilterKey, string][] = [
  ["provider", "Provider"],
  ["region", "Region"],
  ["availability_zone", "Availability zone"],
  ["instance_type", "Instance type"],
];

export default function Recommendations() {
  const [search, setSearch] = useSearchParams();
  const { tenantId } = useTenant();
  const summaryQuery = useMemo(() => apiQuery(search, SUMMARY_KEYS), [search]);
  const listQuery = useMemo(() => apiQuery(search, LIST_KEYS), [search]);
  const summary = useSummary(tenantId, summaryQuery);
  const list = useRecommendations(tenantId, listQuery);
  const selectedId = search.get("resource");
  const selected = list.data?.items.find((item) => item.resource_id === selectedId);
  // Synchronously: as a transition the router would leave a clicked checkbox unticked until the
  // new page of results had rendered, and a second click meanwhile would toggle the old state.
  const update = (next: URLSearchParams) => setSearch(next, { flushSync: true });

  const applyText = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    let next = search;
    for (const [key] of TEXT_FILTERS) next = withFilter(next, key, String(data.get(key) ?? ""));
    update(next);
  };

  if (!tenantId) return <Empty>No tenant is in your reach yet.</Empty>;
  return (
    <>
      <div className="title-row">
        <h1>Recommendations</h1>
        <AnalyzeButton tenantId={tenantId} />
      </div>
      <QueryState query={summary}>{(s) => <SummaryCards summary={s} />}</QueryState>
      <section aria-labelledby="filters-title" className="card filters">
        <h2 id="filters-title" className="sr-only">
          Filters
        </h2>
        <div className="filter-row">
          <label>
            Resource type
            <select value={search.get("resource_type") ?? "virtual_machine"} onChange={(e) => update(withFilter(search, "resource_type", e.target.value))}>
              <option value="virtual_machine">Virtual machines</option>
              <option value="kubernetes_node">Kubernetes nodes</option>
            </select>
          </label>
          <label>
            Activity
            <select value={search.get("active") ?? ""} onChange={(e) => update(withFilter(search, "active", e.target.value))}>
              <option value="">Active and inactive</option>
              <option value="true">Active only</option>
              <option value="false">Inactive only</option>
            </select>
          </label>
          <label>
            Per page
            <select value={search.get("limit") ?? "100"} onChange={(e) => update(withFilter(search, "limit", e.target.value))}>
              {["25", "50", "100", "500"].map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
        </div>
        <form className="filter-row" onSubmit={applyText} key={TEXT_FILTERS.map(([k]) => search.get(k)).join("|")}>
          {TEXT_FILTERS.map(([key, label]) => (
            <label key={key}>
              {label}
              <input name={key} defaultValue={search.get(key) ?? ""} placeholder="any; a, b for several" />
            </label>
          ))}
          <button type="submit">Apply</button>
        </form>
        <Checkboxes legend="Action" name="action" values={ACTIONS.map((a) => [a, ACTION_LABELS[a]])} search={search} onChange={update} />
        <div className="filter-row">
          <Checkboxes
            legend="Architecture"
            name="architecture"
            values={[
              ["x86_64", "x86_64"],
              ["arm64", "arm64"],
            ]}
            search={search}
            onChange={update}
          />
          <Checkboxes
            legend="Operating system"
            name="operating_system"
            values={[
              ["linux", "Linux"],
              ["windows", "Windows"],
            ]}
            search={search}
            onChange={update}
          />
        </div>
        {[...search.keys()].some((k) => k !== "resource") && (
          <button type="button" className="link" onClick={() => update(new URLSearchParams())}>
            Clear all filters
          </button>
        )}
      </section>
      {list.error ? (
        <ErrorNote error={list.error} title="Could not load the recommendations" />
      ) : list.isPending ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <Empty>No resource matches these filters.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <DataTable
              caption="Recommendations, one row per resource"
              columns={["Resource", "Region", "Action", "Current \u2192 recommended", num("Monthly cost"), num("Savings / month")]}
            >
              {list.data.items.map((item) => (
                <tr key={item.resource_id}>
                  <td>
                    <button
                      type="button"
                      className="link"
                      onClick={() => update(new URLSearchParams({ ...Object.fromEntries(search), resource: item.resource_id }))}
                    >
                      {item.name || item.resource_id}
                    </button>
                    {!item.active && <span className="tag">inactive</span>}
                    {item.state !== "open" && <span className="tag">{STATE_LABELS[item.state].toLowerCase()}</span>}
                  </td>
                  <td>{item.region ?? "—"}</td>
                  <td>
                    <span className={`action action-${actionOf(item)}`}>{ACTION_LABELS[actionOf(item)]}</span>
                  </td>
                  <td>
                    {item.current_instance_type ?? item.instance_type ?? "—"}
                    {item.recommended_instance_type && item.recommended_instance_type !== item.current_instance_type
                      ? ` → ${item.recommended_instance_type}`
                      : item.action === "TERMINATE"
                        ? " → terminate"
                        : ""}
                  </td>
                  <td className="num">{formatUsd(item.current_monthly_cost_usd)}</td>
                  <td className="num">{formatUsd(item.savings_monthly_usd)}</td>
                </tr>
              ))}
            </DataTable>
          </div>
          <nav className="pager" aria-label="Pages">
            <button type="button" disabled={!search.get("cursor")} onClick={() => update(withFilter(search, "cursor", undefined))}>
              First page
            </button>
            <button type="button" disabled={!list.data.next_cursor} onClick={() => update(withFilter(search, "cursor", list.data.next_cursor ?? undefined))}>
              Next page
            </button>
          </nav>
        </>
      )}
      <RecommendationDetail
        open={!!selectedId}
        item={selected}
        loading={list.isPending}
        decision={(item) => <RecommendationDecision key={item.resource_id} tenantId={tenantId} item={item} />}
        onClose={() => {
          const next = new URLSearchParams(search);
          next.delete("resource");
          update(next);
        }}
      />
    </>
  );
}

function Checkboxes(props: { legend: string; name: FilterKey; values: [string, string][]; search: URLSearchParams; onChange(next: URLSearchParams): void }) {
  // Ticked at once, then the URL (the source of truth) follows: the router's navigation is
  // asynchronous, and a controlled box bound only to the URL stayed unticked until it ended (on a
  // loaded machine long enough for a second click to toggle the old state).
  const inUrl = listValue(props.search.get(props.name)).join(",");
  const [selected, setSelected] = useState(() => listValue(inUrl));
  useEffect(() => setSelected(listValue(inUrl)), [inUrl]);
  const toggle = (value: string) => {
    const next = toggled(withFilter(props.search, props.name, selected), props.name, value);
    setSelected(listValue(next.get(props.name)));
    props.onChange(next);
  };
  return (
    <fieldset className="checks">
      <legend>{props.legend}</legend>
      {props.values.map(([value, label]) => (
        <label key={value}>
          <input type="checkbox" name={props.name} value={value} checked={selected.includes(value)} onChange={() => toggle(value)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function AnalyzeButton({ tenantId }: { tenantId: string }) {
  const me = useMe().data;
  const analyze = useAnalyze(tenantId);
  if (!canManage(me)) return null;
  return (
    <div className="analyze">
      <button type="button" onClick={() => analyze.mutate()} disabled={analyze.isPending}>
        {analyze.isPending ? "Analyzing…" : "Analyze now"}
      </button>
      {analyze.data && (
        <span role="status" className="muted">
          {analyze.data.analyzed_resources} resources analyzed in {analyze.data.duration_ms} ms
        </span>
      )}
      {analyze.error && <ErrorNote error={analyze.error} title="Analysis failed" />}
    </div>
  );
}
