import type { TokenBucket } from "@cloudcost/contracts";
import { useFields } from "../../../shared/hooks/use-fields";
import { type ModelPriceInput, type PriceRights, useModelPrices } from "../hooks";
import { modelIdentity } from "../prices";
import { PriceKind, ProviderField, RegionField } from "./PriceKind";

const BUCKETS: TokenBucket[] = ["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"];

export function ModelPrices({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const book = useModelPrices(apiKey);
  const { form, field, clear } = useFields({
    provider: "",
    model: "",
    region: "",
    token_bucket: "input" as TokenBucket,
    price: "",
    currency: "USD",
    effective_from: "",
  });
  const entry = (): ModelPriceInput => ({
    provider: form.provider.trim(),
    model: form.model.trim(),
    ...(form.region.trim() ? { region: form.region.trim() } : {}),
    token_bucket: form.token_bucket,
    unit_price_per_mtok: Number(form.price),
    currency: form.currency.trim().toUpperCase() || "USD",
    ...(form.effective_from ? { effective_from: new Date(form.effective_from).toISOString() } : {}),
  });
  return (
    <PriceKind
      id="model-prices"
      title="Model prices"
      rights={rights}
      book={book}
      form={{
        label: "Register a model price",
        note: "A new price for the same model and bucket closes the open one: the earlier versions stay below it.",
        entry,
        registered: () => clear("price", "effective_from"),
        fields: (
          <>
            <div className="row">
              <ProviderField {...field("provider")} />
              <label>
                Model
                <input required maxLength={256} {...field("model")} />
              </label>
              <RegionField {...field("region")} />
            </div>
            <div className="row">
              <label>
                Token bucket
                <select {...field("token_bucket")}>
                  {BUCKETS.map((b) => (
                    <option key={b}>{b}</option>
                  ))}
                </select>
              </label>
              <label>
                Price per million tokens
                <input required type="number" min="0" step="any" {...field("price")} />
              </label>
              <label>
                Currency
                <input required maxLength={3} {...field("currency")} />
              </label>
              <label>
                Effective from (default now)
                <input type="datetime-local" {...field("effective_from")} />
              </label>
            </div>
          </>
        ),
      }}
      list={{
        caption: "Model prices",
        what: "price",
        empty: "No model price registered for this account yet.",
        identity: modelIdentity,
        price: (m) => `${m.unit_price_per_mtok} ${m.currency} / M tokens`,
      }}
    />
  );
}
