import type { BusinessMetric, MetricValuesMode, PutBusinessMetricRequest } from "@cloudcost/contracts";
import { type ChangeEvent, type FormEvent, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { ApiError } from "../../../shared/api/errors";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { useBusinessMetrics, useMetricValues } from "../business-metric-hooks";
import { useDimensions } from "../dimension-hooks";
import { DayRange, type DayRangeValue, EditDelete, useDayRange } from "./RowActions";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

const EXAMPLE_CSV = "date,amount,label\n2026-11-01,1250,web\n2026-11-01,310,data\n2026-11-02,1180,web\n";

interface Draft {
  /** The metric being edited (its name is fixed then), or undefined for a new one. */
  editing?: string;
  name: string;
  unit: string;
  description: string;
  dimension: string;
}

const emptyDraft = (): Draft => ({ name: "", unit: "", description: "", dimension: "" });
const draftOf = (m: BusinessMetric): Draft => ({ editing: m.name, name: m.name, unit: m.unit, description: m.description ?? "", dimension: m.dimension ?? "" });
const bodyOf = (draft: Draft): PutBusinessMetricRequest => ({
  unit: draft.unit.trim(),
  description: draft.description.trim() || null,
  dimension: draft.dimension || null,
});

/** A chosen file's text (FileReader: Blob.text() is missing in some browsers and in jsdom). */
const readText = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });

/** An upload's failure: the API's own message for a 400 (it names the CSV line and column, or the JSON path), else the usual words. */
function UploadError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 400)
    return (
      <div className="error" role="alert" data-testid="upload-error">
        <strong>Nothing was stored:</strong> {error.message} Correct that row and upload the file again; every row is stored or none.
      </div>
    );
  if (error instanceof ApiError && error.status === 413)
    return (
      <div className="error" role="alert" data-testid="upload-error">
        <strong>Nothing was stored:</strong> the file is larger than 4 MiB. Split it into several uploads (at most 10,000 rows each).
      </div>
    );
  return <ErrorNote error={error} title="Could not store the values" />;
}

export default function BusinessMetrics() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const { list, save, upload, remove } = useBusinessMetrics(orgId);
  const dimensions = useDimensions(orgId).list.data?.items ?? [];
  const dimensionName = (key: string | null) => (key ? (dimensions.find((d) => d.key === key)?.name ?? key) : undefined);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const metrics = list.data?.items ?? [];
  const [chosen, setChosen] = useState<string>();
  const selected = chosen && metrics.some((m) => m.name === chosen) ? chosen : metrics[0]?.name;
  const [csv, setCsv] = useState("");
  const [fileName, setFileName] = useState<string>();
  const [mode, setMode] = useState<MetricValuesMode>("sum");
  const [range, setRange] = useDayRange();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ name: draft.name.trim(), body: bodyOf(draft) }, { onSuccess: (metric) => setChosen(metric.name) });
  };
  const chooseFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setCsv(await readText(file));
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (selected && csv.trim()) upload.mutate({ name: selected, csv, mode });
  };

  return (
    <>
      <p className="muted">
        A business metric is a daily series of your own, such as orders, active users or gigabytes stored, that spend is divided by: on the Spend page,
        &ldquo;Cost per&rdquo; shows what each row cost per unit. Amounts are per UTC day and may carry a label, a value of the dimension that labels the metric
        (the orders of team <code>web</code>), so that each value&rsquo;s cost is divided by its own amount.
        {manager ? "" : " Only owners and admins create metrics and store their values."}
      </p>
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>
              No business metric yet.
              {manager ? " Create one below, then upload its daily amounts." : " An owner or admin of the organization can create one."}
            </Empty>
          ) : (
            <DataTable caption="Business metrics" columns={["Name", "Unit", "Description", "Labelled by", <span className="sr-only">Actions</span>]}>
              {data.items.map((m) => (
                <tr key={m.name} data-testid="business-metric">
                  <td>
                    <code>{m.name}</code>
                  </td>
                  <td>{m.unit}</td>
                  <td>{m.description ?? <span className="muted">none</span>}</td>
                  <td>{m.dimension ? `${dimensionName(m.dimension)} (dimension)` : <span className="muted">no dimension: amounts are totals</span>}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="link"
                      aria-label={`Values of ${m.name}`}
                      aria-pressed={selected === m.name}
                      onClick={() => setChosen(m.name)}
                    >
                      Values
                    </button>
                    {manager && (
                      <EditDelete
                        name={m.name}
                        confirm={`Delete the business metric ${m.name} and all its values?`}
                        onEdit={() => setDraft(draftOf(m))}
                        onDelete={() => remove.mutate(m.name)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the metric" />}
      {manager && (
        <form className="card form" onSubmit={submit} aria-labelledby="metric-editor">
          <h2 id="metric-editor">{draft.editing ? `Edit ${draft.editing}` : "New business metric"}</h2>
          <label>
            <span>
              Name (lowercase letters, digits, underscores; the Spend page&rsquo;s <code>per=name</code>)
            </span>
            <input
              required
              pattern="[a-z][a-z0-9_]{0,39}"
              readOnly={!!draft.editing}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            />
          </label>
          <label>
            Unit (what one unit counts: order, user, GB)
            <input required maxLength={64} value={draft.unit} onChange={(e) => setDraft({ ...draft, unit: e.target.value })} />
          </label>
          <label>
            Description
            <textarea rows={2} maxLength={2000} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
          </label>
          <label>
            Labelled by (the dimension whose values the amounts&rsquo; labels are)
            <select value={draft.dimension} onChange={(e) => setDraft({ ...draft, dimension: e.target.value })}>
              <option value="">no dimension</option>
              {dimensions.map((d) => (
                <option key={d.key} value={d.key}>
                  {d.name} ({d.key})
                </option>
              ))}
              {draft.dimension && !dimensions.some((d) => d.key === draft.dimension) && <option value={draft.dimension}>{draft.dimension}</option>}
            </select>
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              {draft.editing ? "Save changes" : "Create metric"}
            </button>{" "}
            <button type="button" className="link" onClick={() => setDraft(emptyDraft())}>
              Start over
            </button>
          </div>
          {save.error && <ErrorNote error={save.error} title="Could not save the metric" />}
          {save.data && (
            <p role="status" data-testid="metric-saved">
              Saved {save.data.name} ({save.data.unit}
              {save.data.dimension ? `, labelled by ${dimensionName(save.data.dimension)}` : ""}). Its values are kept.
            </p>
          )}
        </form>
      )}
      {manager && metrics.length > 0 && selected && (
        <form className="card form" onSubmit={send} aria-labelledby="metric-upload">
          <h2 id="metric-upload">Upload values of {selected}</h2>
          <p className="muted">
            A CSV with the header <code>date,amount,label</code>: one amount per row, the date a UTC day (<code>YYYY-MM-DD</code>), the amount a decimal at
            least 0, the label optional (empty: the day&rsquo;s amount without a label). At most 10,000 rows and 4 MiB per upload; a mistake stores nothing and
            names its line and column.
          </p>
          <label>
            Metric
            <select value={selected} onChange={(e) => setChosen(e.target.value)}>
              {metrics.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            CSV file
            <input type="file" accept=".csv,text/csv,text/plain" onChange={chooseFile} />
          </label>
          <label>
            Or paste the rows{fileName ? ` (now: ${fileName})` : ""}
            <textarea rows={8} spellCheck={false} placeholder={EXAMPLE_CSV} value={csv} onChange={(e) => setCsv(e.target.value)} />
          </label>
          <fieldset className="inline">
            <legend>Amounts already stored for the same day and label</legend>
            <label className="checkbox">
              <input type="radio" name="mode" value="sum" checked={mode === "sum"} onChange={() => setMode("sum")} /> add to them (sum)
            </label>
            <label className="checkbox">
              <input type="radio" name="mode" value="replace" checked={mode === "replace"} onChange={() => setMode("replace")} /> replace them
            </label>
          </fieldset>
          <div className="actions">
            <button type="submit" className="primary" disabled={upload.isPending || !csv.trim()}>
              Upload values
            </button>
          </div>
          {upload.error && <UploadError error={upload.error} />}
          {upload.data && (
            <p role="status" data-testid="values-stored">
              Stored {upload.data.received} row{upload.data.received === 1 ? "" : "s"} of {upload.data.name} as {upload.data.stored} day and label amount
              {upload.data.stored === 1 ? "" : "s"} ({upload.data.mode === "sum" ? "added to what was stored" : "replacing what was stored"}), from{" "}
              {upload.data.first_date} to {upload.data.last_date}.
            </p>
          )}
        </form>
      )}
      {selected && <Values orgId={orgId} name={selected} range={range} setRange={setRange} />}
    </>
  );
}

function Values({ orgId, name, range, setRange }: { orgId: string; name: string; range: DayRangeValue; setRange: (range: DayRangeValue) => void }) {
  const values = useMetricValues(orgId, name, range.start, range.end);
  return (
    <section className="card" aria-labelledby="metric-values" data-testid="metric-values">
      <h2 id="metric-values">Values of {name}</h2>
      <DayRange legend="Days" endLabel="To (exclusive, at most 400 days later)" range={range} setRange={setRange} />
      <QueryState query={values}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty>
              No amount of {name} is stored from {data.start} to {data.end} (exclusive). Unit costs of those days show &ldquo;—&rdquo;.
            </Empty>
          ) : (
            <ScrollRegion label={`Values of ${name}`}>
              <DataTable
                caption={`Amounts of ${name} (${data.unit}) from ${data.start} to ${data.end}, by date and label`}
                columns={["Date", "Label", num(`Amount (${data.unit})`)]}
              >
                {data.rows.map((row) => (
                  <tr key={`${row.date} ${row.label ?? ""}`}>
                    <td>{row.date}</td>
                    <td>{row.label ?? <span className="muted">no label</span>}</td>
                    <td className="num">{row.amount}</td>
                  </tr>
                ))}
              </DataTable>
            </ScrollRegion>
          )
        }
      </QueryState>
    </section>
  );
}
