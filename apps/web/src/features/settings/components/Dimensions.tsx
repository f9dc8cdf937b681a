import type { Dimension, DimensionPreview, PutDimensionRequest } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate, money } from "../../../shared/format";
import { useDimensions, useDimensionVersions } from "../dimension-hooks";
import { DayRange, EditDelete, useDayRange } from "./RowActions";
import { DataTable } from "../../../shared/components/DataTable";

const EXAMPLE_RULES = JSON.stringify(
  [
    { value: "platform", match: { field: "tag:team", op: "eq", value: "platform", case: "insensitive" } },
    { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
    { value: "data", match: { field: "service_name", op: "in", values: ["Amazon Redshift", "Amazon Athena"] } },
  ],
  null,
  2,
);
const EXAMPLE_SPLITS = JSON.stringify([{ source: "platform", targets: "*", method: "proportional" }], null, 2);

interface Draft {
  key: string;
  name: string;
  effectiveFrom: string;
  defaultValue: string;
  rules: string;
  splits: string;
}

const emptyDraft = (): Draft => ({ key: "", name: "", effectiveFrom: "", defaultValue: "", rules: EXAMPLE_RULES, splits: EXAMPLE_SPLITS });
const draftOf = (d: Dimension): Draft => ({
  key: d.key,
  name: d.name,
  effectiveFrom: d.effective_from,
  defaultValue: d.default_value ?? "",
  rules: JSON.stringify(d.rules, null, 2),
  splits: JSON.stringify(
    d.splits.map(({ id: _id, ...split }) => split),
    null,
    2,
  ),
});

/** The draft as the API's body, or the JSON error naming which box holds it. */
function bodyOf(draft: Draft): { body?: PutDimensionRequest; error?: string } {
  const parse = (text: string, what: string) => {
    try {
      return { value: JSON.parse(text || "[]") as unknown };
    } catch (err) {
      return { error: `${what} is not JSON: ${(err as Error).message}` };
    }
  };
  const rules = parse(draft.rules, "Rules");
  if (rules.error) return { error: rules.error };
  const splits = parse(draft.splits, "Splits");
  if (splits.error) return { error: splits.error };
  return {
    body: {
      name: draft.name.trim(),
      rules: rules.value as PutDimensionRequest["rules"],
      splits: splits.value as PutDimensionRequest["splits"],
      default_value: draft.defaultValue.trim() || null,
      ...(draft.effectiveFrom ? { effective_from: draft.effectiveFrom } : {}),
    },
  };
}

export default function Dimensions() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const { list, save, preview, remove } = useDimensions(orgId);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [range, setRange] = useDayRange();
  const [localError, setLocalError] = useState<string>();
  const [versionsOf, setVersionsOf] = useState<string>();

  const withBody = (then: (body: PutDimensionRequest) => void) => {
    const { body, error } = bodyOf(draft);
    setLocalError(error);
    if (body) then(body);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    withBody((body) => save.mutate({ key: draft.key, body }));
  };
  return (
    <>
      <p className="muted">
        A dimension gives every spend line one value (a team, a product, a cost center) by ordered rules, first match wins; split rules share the cost of one
        value (a shared platform, support, the unallocated rest) among others, per day. Tenants still decide who may see a line. Each save is a new version,
        effective from its month.
      </p>
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No dimension yet.{manager ? " Create one below." : ""}</Empty>
          ) : (
            <DataTable
              caption="Dimensions"
              columns={["Key", "Name", "Version", "Effective from", "Rules", "Splits", "Unmatched lines", "Status", <span className="sr-only">Actions</span>]}
            >
              {data.items.map((d) => (
                <tr key={d.key} data-testid="dimension">
                  <td>
                    <code>{d.key}</code>
                  </td>
                  <td>{d.name}</td>
                  <td>{d.version}</td>
                  <td>{d.effective_from}</td>
                  <td>{d.rules.length}</td>
                  <td>{d.splits.length}</td>
                  <td>{d.default_value ?? "unallocated"}</td>
                  <td>{d.status}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="link"
                      aria-label={`Versions of ${d.key}`}
                      aria-expanded={versionsOf === d.key}
                      onClick={() => setVersionsOf(versionsOf === d.key ? undefined : d.key)}
                    >
                      Versions
                    </button>
                    {manager && (
                      <EditDelete
                        name={d.key}
                        confirm={`Delete the dimension ${d.key} and its versions?`}
                        onEdit={() => setDraft(draftOf(d))}
                        onDelete={() => remove.mutate(d.key)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the dimension" />}
      {versionsOf && <Versions orgId={orgId} dimensionKey={versionsOf} />}
      {manager && (
        <form className="card form" onSubmit={submit} aria-labelledby="dimension-editor">
          <h2 id="dimension-editor">{draft.key && list.data?.items.some((d) => d.key === draft.key) ? `New version of ${draft.key}` : "New dimension"}</h2>
          <label>
            Key (lowercase letters, digits, underscores; queries name it <code>dimension:key</code>)
            <input required pattern="[a-z][a-z0-9_]{0,39}" value={draft.key} onChange={(e) => setDraft({ ...draft, key: e.target.value })} />
          </label>
          <label>
            Name
            <input required maxLength={200} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
          </label>
          <label>
            Effective from (month; empty: 12 months back)
            <input type="month" value={draft.effectiveFrom} onChange={(e) => setDraft({ ...draft, effectiveFrom: e.target.value })} />
          </label>
          <label>
            Value of lines no rule matches (empty: unallocated)
            <input maxLength={128} value={draft.defaultValue} onChange={(e) => setDraft({ ...draft, defaultValue: e.target.value })} />
          </label>
          <label>
            Rules (JSON, first match wins: <code>{"{value | value_from, match}"}</code>; conditions <code>all</code>, <code>any</code>, <code>not</code> or{" "}
            <code>{"{field, op, value | values}"}</code>, regex in RE2 syntax)
            <textarea rows={12} spellCheck={false} value={draft.rules} onChange={(e) => setDraft({ ...draft, rules: e.target.value })} />
          </label>
          <label>
            Splits (JSON: <code>{'{source, targets | "*", method: even | fixed | proportional | metric, percentages?}'}</code>)
            <textarea rows={6} spellCheck={false} value={draft.splits} onChange={(e) => setDraft({ ...draft, splits: e.target.value })} />
          </label>
          <DayRange legend="Preview over" endLabel="To (exclusive, at most 93 days later)" range={range} setRange={setRange} />
          <div className="actions">
            <button
              type="button"
              disabled={!draft.key || preview.isPending}
              onClick={() => withBody((body) => preview.mutate({ key: draft.key, body, query: range }))}
            >
              Preview (saves nothing)
            </button>{" "}
            <button type="submit" className="primary" disabled={save.isPending}>
              Save version
            </button>{" "}
            <button type="button" className="link" onClick={() => setDraft(emptyDraft())}>
              Start over
            </button>
          </div>
          {localError && (
            <p role="alert" className="error">
              {localError}
            </p>
          )}
          {save.error && <ErrorNote error={save.error} title="Could not save the version" />}
          {save.data && (
            <p role="status" data-testid="dimension-saved">
              Saved {save.data.key} version {save.data.version}, effective from {save.data.effective_from}.
            </p>
          )}
          {preview.error && <ErrorNote error={preview.error} title="Could not preview the draft" />}
        </form>
      )}
      {preview.data && <Preview data={preview.data} />}
    </>
  );
}

function Versions({ orgId, dimensionKey }: { orgId: string; dimensionKey: string }) {
  const versions = useDimensionVersions(orgId, dimensionKey);
  return (
    <section className="card" aria-labelledby="dimension-versions">
      <h2 id="dimension-versions">Versions of {dimensionKey}</h2>
      <QueryState query={versions}>
        {(data) => (
          <ul className="plain">
            {data.items.map((v) => (
              <li key={v.version}>
                Version {v.version}: effective from {v.effective_from}, {v.rules.length} rules, {v.splits.length} splits, saved {formatDate(v.created_at)}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

function Preview({ data }: { data: DimensionPreview }) {
  const m = (value: string) => money(value, data.currency);
  return (
    <section className="card" aria-labelledby="dimension-preview" data-testid="dimension-preview">
      <h2 id="dimension-preview">Preview</h2>
      <p>
        {data.coverage.percent === null ? "No lines were charged in this range." : `${data.coverage.percent} % of the cost is allocated`}:{" "}
        {m(data.coverage.allocated)} allocated, {m(data.coverage.unallocated)} unallocated ({data.metric.replace("_", " ")}, {data.start.slice(0, 10)} to{" "}
        {data.end.slice(0, 10)}).
      </p>
      <DataTable
        caption="Cost by value, after the splits (cost = direct - shared out + shared in)"
        captionVisible
        columns={["Value", "Direct", "Shared out", "Shared in", "Cost"]}
      >
        {data.values.map((v) => (
          <tr key={v.value}>
            <th scope="row">{v.value === "__unallocated__" ? "Unallocated" : v.value}</th>
            <td>{m(v.direct_cost)}</td>
            <td>{m(v.shared_out)}</td>
            <td>{m(v.shared_in)}</td>
            <td>{m(v.cost)}</td>
          </tr>
        ))}
      </DataTable>
      <DataTable caption="Lines each rule matched first" captionVisible columns={["Rule", "Lines", "Cost"]}>
        {data.rules.map((r) => (
          <tr key={r.index}>
            <th scope="row">{r.index + 1}</th>
            <td>{r.lines}</td>
            <td>{m(r.cost)}</td>
          </tr>
        ))}
      </DataTable>
      {data.unused_rules.length > 0 && (
        <p className="muted">
          Rules that matched no line first: {data.unused_rules.map((i) => i + 1).join(", ")} (a rule above them takes their lines, or no line has what they
          ask).
        </p>
      )}
    </section>
  );
}
