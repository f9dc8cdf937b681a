import type { CommitmentRate } from "@cloudcost/contracts";
import { Link } from "react-router";
import { OptionsField } from "../../../shared/components/OptionsField";
import { useFields } from "../../../shared/hooks/use-fields";
import { type CommitmentRateInput, type PriceRights, useCommitmentRates } from "../hooks";
import { PriceKind, ProviderField, RegionField } from "./PriceKind";

const TYPES = { savings_plan: "Savings Plan", reserved_instance: "Reserved Instance", committed_use: "Committed use" } as const;
const PAYMENTS = { no_upfront: "no upfront", partial_upfront: "partial upfront", all_upfront: "all upfront" } as const;

const rateIdentity = (r: CommitmentRate) =>
  [
    r.provider,
    TYPES[r.commitment_type],
    `${r.term_months / 12} year${r.term_months === 12 ? "" : "s"}`,
    PAYMENTS[r.payment_option],
    r.service_category,
    r.region,
    r.family && `family ${r.family}`,
  ]
    .filter(Boolean)
    .join(" · ");

/** What a commitment would cost: the discount per type, term and payment option; the Commitments page recommends purchases from these. */
export function CommitmentRates({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  const book = useCommitmentRates(apiKey);
  const { form, field, clear } = useFields({
    provider: "aws",
    commitment_type: "savings_plan" as keyof typeof TYPES,
    term_months: "12",
    payment_option: "no_upfront" as keyof typeof PAYMENTS,
    service_category: "Compute",
    region: "",
    discount: "",
  });
  const optional = (name: "service_category" | "region", value: string) => (value.trim() ? { [name]: value.trim() } : {});
  const entry = (): CommitmentRateInput => ({
    provider: form.provider.trim(),
    commitment_type: form.commitment_type,
    term_months: form.term_months === "36" ? 36 : 12,
    payment_option: form.payment_option,
    ...optional("service_category", form.service_category),
    ...optional("region", form.region),
    discount_percent: Number(form.discount),
  });
  return (
    <PriceKind
      id="commitment-rates"
      title="Commitment rates"
      intro={
        <p className="muted">
          The discount a Savings Plan, Reserved Instance or committed-use discount would give you. <Link to="/commitments">Commitments</Link> recommends how
          much to commit to at each rate, from your recent on-demand spend.
        </p>
      }
      rights={rights}
      book={book}
      form={{
        label: "Register a commitment rate",
        entry,
        registered: () => clear("discount"),
        fields: (
          <div className="row">
            <ProviderField {...field("provider")} />
            <OptionsField label="Type" options={TYPES} {...field("commitment_type")} />
            <OptionsField label="Term" options={{ 12: "1 year", 36: "3 years" }} {...field("term_months")} />
            <OptionsField label="Payment" options={PAYMENTS} {...field("payment_option")} />
            <label>
              Service category (optional)
              <input maxLength={256} {...field("service_category")} />
            </label>
            <RegionField {...field("region")} />
            <label>
              Percent off on demand
              <input required type="number" min="0" max="100" step="any" {...field("discount")} />
            </label>
          </div>
        ),
      }}
      list={{
        caption: "Commitment rates",
        what: "commitment rate",
        empty: "No commitment rate yet: register the discount your provider offers to get purchase recommendations.",
        identity: rateIdentity,
        price: (r) => `${r.discount_percent} % off on demand`,
      }}
    />
  );
}
