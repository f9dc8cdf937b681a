import type { ComputePricingEntry } from "@cloudcost/contracts";
import { useFields } from "../../../shared/hooks/use-fields";
import { type ComputePriceInput, type PriceRights, useComputePrices } from "../hooks";
import { PriceKind, ProviderField, RegionField } from "./PriceKind";

const computeIdentity = (c: ComputePricingEntry) =>
  [c.provider, c.region, c.instance_type ?? (c.family ? `family ${c.family}` : null), c.operating_system, c.usage_type].filter(Boolean).join(" · ");

export function ComputePrices({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const book = useComputePrices(apiKey);
  const { form, field, clear } = useFields({
    provider: "aws",
    region: "",
    scope: "family" as "instance_type" | "family" | "all",
    target: "",
    by: "discount" as "discount" | "fixed",
    value: "",
  });
  const entry = (): ComputePriceInput => {
    const target = form.target.trim();
    const place = { provider: form.provider.trim(), ...(form.region.trim() ? { region: form.region.trim() } : {}) };
    return form.by === "fixed"
      ? { ...place, instance_type: target, price_per_hour: Number(form.value) }
      : { ...place, ...(form.scope !== "all" && target ? { [form.scope]: target } : {}), discount_percent: Number(form.value) };
  };
  return (
    <PriceKind
      id="compute-prices"
      title="Negotiated compute prices"
      rights={rights}
      book={book}
      form={{
        label: "Register a negotiated compute price",
        note: "A fixed hourly rate for one instance type, or a discount off the list price of a family, a region or a whole provider.",
        entry,
        registered: () => clear("value"),
        fields: (
          <div className="row">
            <ProviderField {...field("provider")} />
            <RegionField {...field("region")} />
            <label>
              Kind
              <select {...field("by")}>
                <option value="discount">discount percent</option>
                <option value="fixed">fixed price per hour</option>
              </select>
            </label>
            {form.by === "discount" && (
              <label>
                Discount applies to
                <select {...field("scope")}>
                  <option value="family">one family</option>
                  <option value="instance_type">one instance type</option>
                  <option value="all">everything of the provider (and region)</option>
                </select>
              </label>
            )}
            {(form.by === "fixed" || form.scope !== "all") && (
              <label>
                {form.by === "fixed" || form.scope === "instance_type" ? "Instance type" : "Family"}
                <input required maxLength={256} {...field("target")} />
              </label>
            )}
            <label>
              {form.by === "fixed" ? "USD per hour" : "Percent off"}
              <input required type="number" min="0" max={form.by === "fixed" ? undefined : 100} step="any" {...field("value")} />
            </label>
          </div>
        ),
      }}
      list={{
        caption: "Negotiated compute prices",
        what: "compute price",
        empty: "No negotiated compute price: the catalog's list prices apply.",
        identity: computeIdentity,
        price: (c) => (c.price_per_hour !== null ? `${c.price_per_hour} ${c.currency} / hour` : `${c.discount_percent} % off list`),
      }}
    />
  );
}
