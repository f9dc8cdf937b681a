import type { SpendReport } from "@cloudcost/contracts";
import { useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { useSpend, useSpendExport } from "../hooks";
import { canManage, canWrite, useMe } from "../../../app/app-context";
import { SpendChart } from "./SpendChart";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import {
  allocationApplies,
  currenciesOf,
  DIMENSIONS,
  filtersOf,
  groupByOf,
  PER_SCALES,
  perOf,
  perText,
  PRESETS,
  presetOf,
  type SpendScope,
  spendQuery,
  stackRows,
  UNALLOCATED,
  unitCostQuery,
  unitMoney,
} from "../spend";
import { useBusinessMetrics } from "../../settings/business-metric-hooks";
import { useDimensions } from "../../settings/dimension-hooks";
import { useTenant } from "../../../app/tenant";
import { FilterEditor } from "./FilterEditor";
import { noUnitCost, SpendTable } from "./SpendTable";
import { UnitCostChart } from "./UnitCostChart";
import { Totals, Unpriced } from "./SpendSummary";

export default function Spend() {
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
  const per = perOf(search);
  // The bars need no unit cost; the unit-cost line reads the chart's periods without grouping.
  const barQuery = useMemo(() => {
    const query = new URLSearchParams(chartQuery);
    query.delete("per");
    query.delete("per_scale");
    return query;
  }, [chartQuery]);
  const lineQuery = useMemo(() => unitCostQuery(chartQuery), [chartQuery]);
  const chart = useSpend(scope, tenantId, barQuery);
  const table = useSpend(scope, tenantId, tableQuery);
  const unitLine = useSpend(scope, tenantId, lineQuery, !!per);
  const metrics = useBusinessMetrics(me?.organization.id ?? "").list.data?.items ?? [];
  const tenantName = tenants.find((t) => t.id === tenantId)?.name ?? "this tenant";
  const dimensions = (useDimensions(me?.organization.id ?? "").list.data?.items ?? []).map((d) => ({ key: d.key, name: d.name }));
  const label = (dimension: string) => (value: string | null) => {
    if (dimension === "tenant") return value === null ? "Unallocated" : (tenants.find((t) => t.id === value)?.name ?? value);
    if (dimension.startsWith("dimension:")) return value === null || value === UNALLOCATED ? "Unallocated" : value;
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

  const { download, error: exporting, unpriced: exportedUnpriced } = useSpendExport(search, now, orgView, tenantId);
  const [includeUnpriced, setIncludeUnpriced] = useState(false);
  /** "": no dimension columns; "columns": every dimension's column; a key: that dimension's column, its split lines written once per piece. */
  const [exportDimensions, setExportDimensions] = useState("");

  return (
    <>
      <div className="title-row">
        <h1>Spend</h1>
        <div className="export">
          <label className="checkbox" title="FOCUS forbids empty costs: unpriced usage is written with zero costs and x_Priced false">
            <input type="checkbox" checked={includeUnpriced} onChange={(e) => setIncludeUnpriced(e.target.checked)} /> include unpriced usage
          </label>
          {dimensions.length > 0 && (
            <label>
              Dimensions in the file
              <select value={exportDimensions} onChange={(e) => setExportDimensions(e.target.value)}>
                <option value="">none</option>
                <option value="columns">a column per dimension</option>
                {dimensions.map((d) => (
                  <option key={d.key} value={d.key}>
                    {d.name}, shared costs split (FOCUS 1.3 allocation columns)
                  </option>
                ))}
              </select>
            </label>
          )}
          <button
            type="button"
            onClick={() =>
              download(
                includeUnpriced,
                exportDimensions === "columns" ? dimensions.map((d) => d.key) : [],
                exportDimensions && exportDimensions !== "columns" ? exportDimensions : undefined,
              )
            }
            disabled={!orgView && !tenantId}
          >
            Download FOCUS CSV
          </button>
        </div>
      </div>
      {exporting !== undefined && <ErrorNote error={exporting} title="Could not export" />}
      {exportedUnpriced !== undefined && exportedUnpriced.lines > 0 && (
        <p role="status" className="note">
          {exportedUnpriced.included
            ? `The file includes ${exportedUnpriced.lines} unpriced usage line${exportedUnpriced.lines === 1 ? "" : "s"} with zero costs (x_Priced false).`
            : `${exportedUnpriced.lines} unpriced usage line${exportedUnpriced.lines === 1 ? " was" : "s were"} left out of the file: FOCUS forbids empty costs. Tick "include unpriced usage" to write them with zero costs.`}
        </p>
      )}
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
              <option value="contracted_cost">contracted (negotiated rates, before commitments)</option>
            </select>
          </label>
          <label title="Divide the cost by a business metric of the organization (Settings > Business metrics): the table adds its amount and the unit cost">
            Cost per
            <select
              value={per?.metric ?? ""}
              onChange={(e) =>
                update((next) => {
                  if (e.target.value) next.set("per", e.target.value);
                  else {
                    next.delete("per");
                    next.delete("per_scale");
                  }
                })
              }
            >
              <option value="">none</option>
              {metrics.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name} ({m.unit})
                </option>
              ))}
              {per && !metrics.some((m) => m.name === per.metric) && <option value={per.metric}>{per.metric}</option>}
              {metrics.length === 0 && !per && (
                <option value="" disabled>
                  no business metric yet (Settings &gt; Business metrics)
                </option>
              )}
            </select>
          </label>
          {per && (
            <label>
              Per how many
              <select value={String(per.scale)} onChange={(e) => set("per_scale", e.target.value === "1" ? undefined : e.target.value)}>
                {PER_SCALES.map((scale) => (
                  <option key={scale} value={String(scale)}>
                    {scale.toLocaleString("en-US")}
                  </option>
                ))}
              </select>
            </label>
          )}
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
                {dimensions.map((d) => (
                  <option key={d.key} value={`dimension:${d.key}`} disabled={groupBy.includes(`dimension:${d.key}`) && groupBy[index] !== `dimension:${d.key}`}>
                    {d.name} (dimension)
                  </option>
                ))}
              </select>
            </label>
          ))}
          {allocationApplies(groupBy, search, orgView) && (
            <label title="Split rules share a value's cost (a platform, support, the unallocated rest) among others">
              Shared costs
              <select
                value={search.get("allocation") === "direct" ? "direct" : "split"}
                onChange={(e) => set("allocation", e.target.value === "direct" ? "direct" : undefined)}
              >
                <option value="split">split by the dimension's rules</option>
                <option value="direct">each value's own lines only</option>
              </select>
            </label>
          )}
        </div>
        <FilterEditor
          orgView={orgView}
          tenants={tenants}
          dimensions={dimensions}
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
                        {per && (
                          <h3 className="chart-subtitle">
                            Cost per {perText(unitLine.data?.per?.unit ?? per.metric, per.scale)} per{" "}
                            {chartQuery.get("granularity") === "none" ? "range" : chartQuery.get("granularity")}
                          </h3>
                        )}
                        {per && (
                          <QueryState query={unitLine}>
                            {(u) => (
                              <UnitCostChart
                                currency={currency}
                                per={perText(u.per?.unit ?? per.metric, u.per?.scale ?? per.scale)}
                                points={u.rows
                                  .filter((row) => row.currency === currency)
                                  .map((row) => ({ period_start: row.period_start, unit_cost: row.unit_cost ?? null }))}
                              />
                            )}
                          </QueryState>
                        )}
                        {c.totals.length > 1 && <p className="muted">The chart shows {currency}; the table lists every currency.</p>}
                      </>
                    );
                  }}
                </QueryState>
              </section>
              {report.per && <PerNote report={report} groupBy={groupBy} filters={filters} dimensions={dimensions} />}
              <SpendTable report={report} groupBy={groupBy} label={label} />
            </>
          )}
        </QueryState>
      )}
    </>
  );
}

/** Which amounts of the metric each row and the total divide by (the answer's `per.labelled_by`), and the range's unit cost, in words. */
function PerNote({
  report,
  groupBy,
  filters,
  dimensions,
}: {
  report: SpendReport;
  groupBy: string[];
  filters: [string, string[]][];
  dimensions: { key: string; name: string }[];
}) {
  const per = report.per;
  if (!per) return null;
  const unit = perText(per.unit, per.scale);
  const labelledBy = per.labelled_by;
  const dimensionName = labelledBy ? (dimensions.find((d) => `dimension:${d.key}` === labelledBy)?.name ?? labelledBy.slice(10)) : "";
  const filtered = labelledBy ? filters.find(([key]) => key === labelledBy)?.[1] : undefined;
  const which = !labelledBy
    ? `Each row divides its cost by ${per.metric} in total over the row's days (every label and none), as the total does.`
    : groupBy.includes(labelledBy)
      ? `Each row divides its cost by the ${per.metric} labelled with its own ${dimensionName} value over its days (the unallocated row by the amounts without a label); the total by every label.`
      : `Rows and the total divide by the ${per.metric} labelled with the ${dimensionName} value${filtered && filtered.length === 1 ? "" : "s"} filtered on${
          filtered ? ` (${filtered.map((v) => (v === UNALLOCATED ? "unallocated" : v)).join(", ")})` : ""
        }.`;
  return (
    <p className="note" data-testid="per-note">
      Unit cost: cost per {unit}
      {per.metric === per.unit ? "" : ` of ${per.metric}`}. {which}{" "}
      {report.totals.map((t) => (
        <span key={t.currency}>
          {t.unit_cost == null ? (
            `${t.currency}: ${noUnitCost(t.metric_amount, per.metric).replace("No unit cost: ", "no unit cost over the range: ")}. `
          ) : (
            <>
              Over the range:{" "}
              <span title={`${t.unit_cost} ${t.currency}`}>
                {unitMoney(t.unit_cost, t.currency)} per {unit}
              </span>{" "}
              (<span title={t.metric_amount ?? undefined}>{Number(t.metric_amount).toLocaleString("en-US", { maximumFractionDigits: 2 })}</span> {per.unit}).{" "}
            </>
          )}
        </span>
      ))}
    </p>
  );
}
