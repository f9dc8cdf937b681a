import type { FormEvent } from "react";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { useFields } from "../../../shared/hooks/use-fields";
import { type PriceRights, usePins } from "../hooks";
import { Section } from "./VersionTable";

export function Pins({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const { list: pins, put, remove, refresh } = usePins(apiKey);
  const { form, field, clear } = useFields({ kind: "model" as "model" | "database", resource_id: "", pricing_id: "" });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    put.mutate(
      { kind: form.kind, resource_id: form.resource_id.trim(), pricing_id: form.pricing_id.trim() },
      {
        onSuccess: () => {
          clear("resource_id", "pricing_id");
          refresh();
        },
      },
    );
  };
  return (
    <Section id="pins" title="Pins">
      <p className="muted">A pin prices a resource with one entry whatever its labels say.</p>
      {rights.register && (
        <form className="card form" onSubmit={submit} aria-label="Pin a resource">
          <div className="row">
            <label>
              Kind
              <select {...field("kind")}>
                <option value="model">model</option>
                <option value="database">database</option>
              </select>
            </label>
            <label>
              Resource id
              <input required maxLength={256} {...field("resource_id")} />
            </label>
            <label>
              Price entry id
              <input required maxLength={64} {...field("pricing_id")} />
            </label>
          </div>
          <button type="submit" disabled={put.isPending}>
            Pin
          </button>
          {put.error && <ErrorNote error={put.error} title="Could not pin" />}
        </form>
      )}
      {remove.error && <ErrorNote error={remove.error} title="Could not unpin" />}
      <QueryState query={pins}>
        {(data) =>
          data.pins.length === 0 ? (
            <Empty>No pin.</Empty>
          ) : (
            <ul className="plain top">
              {data.pins.map((pin) => (
                <li key={`${pin.kind}/${pin.resource_id}`}>
                  <span>
                    {pin.kind} <strong>{pin.resource_id}</strong> → <code>{pin.pricing_id}</code>
                  </span>
                  {rights.register && (
                    <button type="button" className="link" onClick={() => remove.mutate(pin)}>
                      Unpin<span className="sr-only"> {pin.resource_id}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  );
}
