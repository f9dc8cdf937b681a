import type { ComputePricingEntry } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { ErrorNote } from "../../../shared/components/status";
import { type PriceRights, type ComputePriceInput, useComputePrices } from "../hooks";
import { Section, VersionList } from "./VersionTable";

const computeIdentity = (c: ComputePricingEntry) =>
  [c.provider, c.region, c.instance_type ?? (c.family ? `family ${c.family}` : null), c.operating_system, c.usage_type].filter(Boolean).join(" · ");

export function ComputePrices({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const { list: prices, register, close, refresh } = useComputePrices(apiKey);
  const [form, setForm] = useState({
    provider: "aws",
    region: "",
    scope: "family" as "instance_type" | "family" | "all",
    target: "",
    by: "discount" as "discount" | "fixed",
    value: "",
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const target = form.target.trim();
    const place = { provider: form.provider.trim(), ...(form.region.trim() ? { region: form.region.trim() } : {}) };
    const entry: ComputePriceInput =
      form.by === "fixed"
        ? { ...place, instance_type: target, price_per_hour: Number(form.value) }
        : { ...place, ...(form.scope !== "all" && target ? { [form.scope]: target } : {}), discount_percent: Number(form.value) };
    register.mutate(entry, {
      onSuccess: () => {
        setForm({ ...form, value: "" });
        refresh();
      },
    });
  };
  return (
    <Section id="compute-prices" title="Negotiated compute prices">
      {rights.register && (
        <form className="card form" onSubmit={submit} aria-label="Register a negotiated compute price">
          <p className="muted">A fixed hourly rate for one instance type, or a discount off the list price of a family, a region or a whole provider.</p>
          <div className="row">
            <label>
              Provider
              <input required maxLength={256} value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value })} />
            </label>
            <label>
              Region (optional)
              <input maxLength={256} value={form.region} onChange={(e) => setForm({ ...form, region: e.target.value })} />
            </label>
            <label>
              Kind
              <select value={form.by} onChange={(e) => setForm({ ...form, by: e.target.value as "discount" | "fixed" })}>
                <option value="discount">discount percent</option>
                <option value="fixed">fixed price per hour</option>
              </select>
            </label>
            {form.by === "discount" && (
              <label>
                Discount applies to
                <select value={form.scope} onChange={(e) => setForm({ ...form, scope: e.target.value as "instance_type" | "family" | "all" })}>
                  <option value="family">one family</option>
                  <option value="instance_type">one instance type</option>
                  <option value="all">everything of the provider (and region)</option>
                </select>
              </label>
            )}
            {(form.by === "fixed" || form.scope !== "all") && (
              <label>
                {form.by === "fixed" || form.scope === "instance_type" ? "Instance type" : "Family"}
                <input required maxLength={256} value={form.target} onChange={(e) => setForm({ ...form, target: e.target.value })} />
              </label>
            )}
            <label>
              {form.by === "fixed" ? "USD per hour" : "Percent off"}
              <input
                required
                type="number"
                min="0"
                max={form.by === "fixed" ? undefined : 100}
                step="any"
                value={form.value}
                onChange={(e) => setForm({ ...form, value: e.target.value })}
              />
            </label>
          </div>
          <button type="submit" className="primary" disabled={register.isPending}>
            Register compute price
          </button>
          {register.error && <ErrorNote error={register.error} title="Could not register the compute price" />}
        </form>
      )}
      <VersionList
        query={prices}
        caption="Negotiated compute prices"
        what="compute price"
        empty="No negotiated compute price: the catalog's list prices apply."
        identity={computeIdentity}
        price={(c) => (c.price_per_hour !== null ? `${c.price_per_hour} ${c.currency} / hour` : `${c.discount_percent} % off list`)}
        canClose={rights.close}
        close={close}
      />
    </Section>
  );
}
