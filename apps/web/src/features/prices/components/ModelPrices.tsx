import type { TokenBucket } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { ErrorNote } from "../../../shared/components/status";
import { modelIdentity } from "../prices";
import { type PriceRights, useModelPrices } from "../hooks";
import { Section, VersionList } from "./VersionTable";

const BUCKETS: TokenBucket[] = ["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"];

export function ModelPrices({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const { list: models, register, close, refresh } = useModelPrices(apiKey);
  const [form, setForm] = useState({
    provider: "",
    model: "",
    region: "",
    token_bucket: "input" as TokenBucket,
    price: "",
    currency: "USD",
    effective_from: "",
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const entry = {
      provider: form.provider.trim(),
      model: form.model.trim(),
      ...(form.region.trim() ? { region: form.region.trim() } : {}),
      token_bucket: form.token_bucket,
      unit_price_per_mtok: Number(form.price),
      currency: form.currency.trim().toUpperCase() || "USD",
      ...(form.effective_from ? { effective_from: new Date(form.effective_from).toISOString() } : {}),
    };
    register.mutate(entry, {
      onSuccess: () => {
        setForm({ ...form, price: "", effective_from: "" });
        refresh();
      },
    });
  };
  return (
    <Section id="model-prices" title="Model prices">
      {rights.register && (
        <form className="card form" onSubmit={submit} aria-label="Register a model price">
          <p className="muted">A new price for the same model and bucket closes the open one: the earlier versions stay below it.</p>
          <div className="row">
            <label>
              Provider
              <input required maxLength={256} value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value })} />
            </label>
            <label>
              Model
              <input required maxLength={256} value={form.model} onChange={(e) => setForm({ ...form, model: e.target.value })} />
            </label>
            <label>
              Region (optional)
              <input maxLength={256} value={form.region} onChange={(e) => setForm({ ...form, region: e.target.value })} />
            </label>
          </div>
          <div className="row">
            <label>
              Token bucket
              <select value={form.token_bucket} onChange={(e) => setForm({ ...form, token_bucket: e.target.value as TokenBucket })}>
                {BUCKETS.map((b) => (
                  <option key={b}>{b}</option>
                ))}
              </select>
            </label>
            <label>
              Price per million tokens
              <input required type="number" min="0" step="any" value={form.price} onChange={(e) => setForm({ ...form, price: e.target.value })} />
            </label>
            <label>
              Currency
              <input required maxLength={3} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value })} />
            </label>
            <label>
              Effective from (default now)
              <input type="datetime-local" value={form.effective_from} onChange={(e) => setForm({ ...form, effective_from: e.target.value })} />
            </label>
          </div>
          <button type="submit" className="primary" disabled={register.isPending}>
            Register price
          </button>
          {register.error && <ErrorNote error={register.error} title="Could not register the price" />}
        </form>
      )}
      <VersionList
        query={models}
        caption="Model prices"
        what="price"
        empty="No model price registered for this account yet."
        identity={modelIdentity}
        price={(m) => `${m.unit_price_per_mtok} ${m.currency} / M tokens`}
        canClose={rights.close}
        close={close}
      />
    </Section>
  );
}
