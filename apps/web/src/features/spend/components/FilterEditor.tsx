import { type FormEvent, useState } from "react";
import { DIMENSIONS, dimensionLabel } from "../spend";
import { TenantOptions } from "../../../app/tenant";

export function FilterEditor({
  orgView,
  tenants,
  dimensions,
  filters,
  label,
  onAdd,
  onRemove,
}: {
  orgView: boolean;
  tenants: { id: string; name: string }[];
  /** The organization's dimensions: filter on their values (after splits). */
  dimensions: { key: string; name: string }[];
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
            {dimensions.map((d) => (
              <option key={d.key} value={`dimension:${d.key}`}>
                {d.name} (dimension)
              </option>
            ))}
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
              <TenantOptions tenants={tenants} />
            </select>
          </label>
        ) : (
          <label>
            Value
            <input
              value={value}
              onChange={(e) => setValue(e.target.value)}
              required
              maxLength={256}
              placeholder={dimension.startsWith("dimension:") ? "a value, or __unallocated__" : undefined}
            />
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
