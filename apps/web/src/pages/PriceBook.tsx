import type {
  ComputePricingEntry,
  DatabasePricingEntry,
  ListComputePricesResponse,
  ListDatabasesResponse,
  ListModelsResponse,
  ModelPricingEntry,
  PinList,
  TokenBucket,
} from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { pricingCall } from "../api/client";
import { useApp } from "../app-context";
import { Empty, ErrorNote, QueryState } from "../components/status";
import { formatDate } from "../lib/format";
import { modelIdentity, type PriceSeries, versionSeries } from "../lib/prices";

const BUCKETS: TokenBucket[] = ["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"];

/** What the signed-in role may do with prices (the key's own role still decides on the server). */
export interface PriceRights {
  register: boolean;
  close: boolean;
}

function usePricing(apiKey: string) {
  const { config } = useApp();
  return <T,>(path: string, query?: Record<string, string | undefined>, write?: { method: "POST" | "PUT" | "DELETE"; body?: unknown }) =>
    pricingCall<T>(config.pricingApiBase, apiKey, path, query, write);
}

/** Model prices, negotiated compute prices, database rates and pins of the key's pricing account. */
export function PriceBook({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  return (
    <>
      <ModelPrices apiKey={apiKey} rights={rights} />
      <ComputePrices apiKey={apiKey} rights={rights} />
      <DatabaseRates apiKey={apiKey} rights={rights} />
      <Pins apiKey={apiKey} rights={rights} />
    </>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="price-section">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function VersionTable<T extends { id: string; effective_from: string; effective_to: string | null }>({
  caption,
  series,
  label,
  price,
  canClose,
  onClose,
}: {
  caption: string;
  series: PriceSeries<T>[];
  label: (row: T) => string;
  price: (row: T) => string;
  canClose: boolean;
  onClose(row: T): void;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (axe scrollable-region-focusable)
    <section className="table-wrap" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="sr-only">{caption}, each with its versions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Price of</th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col">Effective</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {series.flatMap((s) =>
            s.versions.map((row, i) => (
              <tr key={row.id} className={i > 0 ? "history" : undefined}>
                <td>{i === 0 ? label(row) : <span className="muted">earlier version</span>}</td>
                <td className="num">{price(row)}</td>
                <td>
                  {formatDate(row.effective_from)} → {row.effective_to ? formatDate(row.effective_to) : "open"}
                </td>
                <td>
                  {row.effective_to === null ? (
                    canClose ? (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => window.confirm(`Close the price of ${label(row)}? It stops applying now.`) && onClose(row)}
                      >
                        Close<span className="sr-only"> {label(row)}</span>
                      </button>
                    ) : (
                      "open"
                    )
                  ) : Date.parse(row.effective_from) > Date.now() ? (
                    "scheduled"
                  ) : (
                    "closed"
                  )}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}

function ModelPrices({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const call = usePricing(apiKey);
  const queryClient = useQueryClient();
  const models = useQuery({
    queryKey: ["pricing-models", apiKey],
    queryFn: () => call<ListModelsResponse>("/marketplace/providers/models", { include_closed: "true" }),
  });
  const [form, setForm] = useState({
    provider: "",
    model: "",
    region: "",
    token_bucket: "input" as TokenBucket,
    price: "",
    currency: "USD",
    effective_from: "",
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["pricing-models", apiKey] });
  const register = useMutation({
    mutationFn: () =>
      call("/marketplace/providers/models", undefined, {
        method: "POST",
        body: {
          entries: [
            {
              provider: form.provider.trim(),
              model: form.model.trim(),
              ...(form.region.trim() ? { region: form.region.trim() } : {}),
              token_bucket: form.token_bucket,
              unit_price_per_mtok: Number(form.price),
              currency: form.currency.trim().toUpperCase() || "USD",
              ...(form.effective_from ? { effective_from: new Date(form.effective_from).toISOString() } : {}),
            },
          ],
        },
      }),
    onSuccess: () => {
      setForm({ ...form, price: "", effective_from: "" });
      refresh();
    },
  });
  const close = useMutation({
    mutationFn: (row: ModelPricingEntry) => call("/marketplace/providers/models", { id: row.id }, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate();
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
      {close.error && <ErrorNote error={close.error} title="Could not close the price" />}
      <QueryState query={models}>
        {(data) =>
          data.entries.length === 0 ? (
            <Empty>No model price registered for this account yet.</Empty>
          ) : (
            <VersionTable
              caption="Model prices"
              series={versionSeries(data.entries, modelIdentity)}
              label={modelIdentity}
              price={(m) => `${m.unit_price_per_mtok} ${m.currency} / M tokens`}
              canClose={rights.close}
              onClose={(row) => close.mutate(row)}
            />
          )
        }
      </QueryState>
    </Section>
  );
}

const computeIdentity = (c: ComputePricingEntry) =>
  [c.provider, c.region, c.instance_type ?? (c.family ? `family ${c.family}` : null), c.operating_system, c.usage_type].filter(Boolean).join(" · ");

function ComputePrices({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const call = usePricing(apiKey);
  const queryClient = useQueryClient();
  const prices = useQuery({
    queryKey: ["pricing-compute", apiKey],
    queryFn: () => call<ListComputePricesResponse>("/marketplace/providers/compute", { include_closed: "true" }),
  });
  const [form, setForm] = useState({
    provider: "aws",
    region: "",
    scope: "family" as "instance_type" | "family" | "all",
    target: "",
    by: "discount" as "discount" | "fixed",
    value: "",
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["pricing-compute", apiKey] });
  const register = useMutation({
    mutationFn: () => {
      const target = form.target.trim();
      const entry: Record<string, unknown> = { provider: form.provider.trim() };
      if (form.region.trim()) entry.region = form.region.trim();
      if (form.by === "fixed") Object.assign(entry, { instance_type: target, price_per_hour: Number(form.value) });
      else {
        if (form.scope !== "all" && target) entry[form.scope] = target;
        entry.discount_percent = Number(form.value);
      }
      return call("/marketplace/providers/compute", undefined, { method: "POST", body: { entries: [entry] } });
    },
    onSuccess: () => {
      setForm({ ...form, value: "" });
      refresh();
    },
  });
  const close = useMutation({
    mutationFn: (row: ComputePricingEntry) => call("/marketplace/providers/compute", { id: row.id }, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate();
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
      {close.error && <ErrorNote error={close.error} title="Could not close the compute price" />}
      <QueryState query={prices}>
        {(data) =>
          data.entries.length === 0 ? (
            <Empty>No negotiated compute price: the catalog's list prices apply.</Empty>
          ) : (
            <VersionTable
              caption="Negotiated compute prices"
              series={versionSeries(data.entries, computeIdentity)}
              label={computeIdentity}
              price={(c) => (c.price_per_hour !== null ? `${c.price_per_hour} ${c.currency} / hour` : `${c.discount_percent} % off list`)}
              canClose={rights.close}
              onClose={(row) => close.mutate(row)}
            />
          )
        }
      </QueryState>
    </Section>
  );
}

function DatabaseRates({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const call = usePricing(apiKey);
  const queryClient = useQueryClient();
  const rates = useQuery({ queryKey: ["pricing-databases", apiKey], queryFn: () => call<ListDatabasesResponse>("/marketplace/providers/databases") });
  const remove = useMutation({
    mutationFn: (row: DatabasePricingEntry) => call("/marketplace/providers/databases", { id: row.id }, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["pricing-databases", apiKey] }),
  });
  const rateText = (d: DatabasePricingEntry) =>
    (
      [
        ["cost_per_hour", "/ hour"],
        ["cost_per_storage_gb_hour", "/ GB-hour"],
        ["cost_per_io_request", "/ I/O request"],
        ["cost_per_iops_hour", "/ IOPS-hour"],
        ["cost_per_throughput_mbps_hour", "/ MBps-hour"],
      ] as const
    )
      .filter(([field]) => d[field] !== null)
      .map(([field, unit]) => `${d[field]} ${d.currency} ${unit}`)
      .join(", ") || "—";
  return (
    <Section id="database-rates" title="Database rates">
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the rate" />}
      <QueryState query={rates}>
        {(data) =>
          data.entries.length === 0 ? (
            <Empty>No database rate registered (register them with POST /marketplace/providers/databases).</Empty>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, so keyboard users must be able to focus it to scroll it (axe scrollable-region-focusable)
            <section className="table-wrap" aria-label="Database rates" tabIndex={0}>
              <table>
                <caption className="sr-only">Database rates</caption>
                <thead>
                  <tr>
                    <th scope="col">Database</th>
                    <th scope="col">Rates</th>
                    <th scope="col">Updated</th>
                    {rights.close && <th scope="col">Action</th>}
                  </tr>
                </thead>
                <tbody>
                  {data.entries.map((d) => {
                    const name = [d.provider, d.service, d.region, d.engine, d.instance_type, d.deployment_option].filter(Boolean).join(" · ");
                    return (
                      <tr key={d.id}>
                        <td>{name}</td>
                        <td>{rateText(d)}</td>
                        <td>{formatDate(d.updated_at)}</td>
                        {rights.close && (
                          <td>
                            <button type="button" className="danger" onClick={() => window.confirm(`Delete the rate of ${name}?`) && remove.mutate(d)}>
                              Delete<span className="sr-only"> {name}</span>
                            </button>
                          </td>
                        )}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </section>
          )
        }
      </QueryState>
    </Section>
  );
}

function Pins({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const call = usePricing(apiKey);
  const queryClient = useQueryClient();
  const pins = useQuery({ queryKey: ["pricing-pins", apiKey], queryFn: () => call<PinList>("/v1/pricing/pins") });
  const [form, setForm] = useState({ kind: "model", resource_id: "", pricing_id: "" });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["pricing-pins", apiKey] });
  const put = useMutation({
    mutationFn: () =>
      call(`/v1/pricing/pins/${form.kind}/${encodeURIComponent(form.resource_id.trim())}`, undefined, {
        method: "PUT",
        body: { pricing_id: form.pricing_id.trim() },
      }),
    onSuccess: () => {
      setForm({ ...form, resource_id: "", pricing_id: "" });
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (pin: { kind: string; resource_id: string }) =>
      call(`/v1/pricing/pins/${pin.kind}/${encodeURIComponent(pin.resource_id)}`, undefined, { method: "DELETE" }),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    put.mutate();
  };
  return (
    <Section id="pins" title="Pins">
      <p className="muted">A pin prices a resource with one entry whatever its labels say.</p>
      {rights.register && (
        <form className="card form" onSubmit={submit} aria-label="Pin a resource">
          <div className="row">
            <label>
              Kind
              <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value })}>
                <option value="model">model</option>
                <option value="database">database</option>
              </select>
            </label>
            <label>
              Resource id
              <input required maxLength={256} value={form.resource_id} onChange={(e) => setForm({ ...form, resource_id: e.target.value })} />
            </label>
            <label>
              Price entry id
              <input required maxLength={64} value={form.pricing_id} onChange={(e) => setForm({ ...form, pricing_id: e.target.value })} />
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
