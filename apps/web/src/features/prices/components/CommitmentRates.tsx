import type { CommitmentRate } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { ErrorNote } from "../../../shared/components/status";
import { type CommitmentRateInput, type PriceRights, useCommitmentRates } from "../hooks";
import { Section, VersionList } from "./VersionTable";

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
  const { list: rates, register, close, refresh } = useCommitmentRates(apiKey);
  const [form, setForm] = useState({
    provider: "aws",
    commitment_type: "savings_plan" as keyof typeof TYPES,
    term_months: "12",
    payment_option: "no_upfront" as keyof typeof PAYMENTS,
    service_category: "Compute",
    region: "",
    discount: "",
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const optional = (name: "service_category" | "region", value: string) => (value.trim() ? { [name]: value.trim() } : {});
    const entry: CommitmentRateInput = {
      provider: form.provider.trim(),
      commitment_type: form.commitment_type,
      term_months: form.term_months === "36" ? 36 : 12,
      payment_option: form.payment_option,
      ...optional("service_category", form.service_category),
      ...optional("region", form.region),
      discount_percent: Number(form.discount),
    };
    register.mutate(entry, {
      onSuccess: () => {
        setForm({ ...form, discount: "" });
        refresh();
      },
    });
  };
  return (
    <Section id="commitment-rates" title="Commitment rates">
      <p className="muted">
        The discount a Savings Plan, Reserved Instance or committed-use discount would give you. <Link to="/commitments">Commitments</Link> recommends how much
        to commit to at each rate, from your recent on-demand spend.
      </p>
      {rights.register && (
        <form className="card form" onSubmit={submit} aria-label="Register a commitment rate">
          <div className="row">
            <label>
              Provider
              <input required maxLength={256} value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value })} />
            </label>
            <label>
              Type
              <select value={form.commitment_type} onChange={(e) => setForm({ ...form, commitment_type: e.target.value as keyof typeof TYPES })}>
                {Object.entries(TYPES).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Term
              <select value={form.term_months} onChange={(e) => setForm({ ...form, term_months: e.target.value })}>
                <option value="12">1 year</option>
                <option value="36">3 years</option>
              </select>
            </label>
            <label>
              Payment
              <select value={form.payment_option} onChange={(e) => setForm({ ...form, payment_option: e.target.value as keyof typeof PAYMENTS })}>
                {Object.entries(PAYMENTS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Service category (optional)
              <input maxLength={256} value={form.service_category} onChange={(e) => setForm({ ...form, service_category: e.target.value })} />
            </label>
            <label>
              Region (optional)
              <input maxLength={256} value={form.region} onChange={(e) => setForm({ ...form, region: e.target.value })} />
            </label>
            <label>
              Percent off on demand
              <input
                required
                type="number"
                min="0"
                max="100"
                step="any"
                value={form.discount}
                onChange={(e) => setForm({ ...form, discount: e.target.value })}
              />
            </label>
          </div>
          <button type="submit" className="primary" disabled={register.isPending}>
            Register commitment rate
          </button>
          {register.error && <ErrorNote error={register.error} title="Could not register the commitment rate" />}
        </form>
      )}
      <VersionList
        query={rates}
        caption="Commitment rates"
        what="commitment rate"
        empty="No commitment rate yet: register the discount your provider offers to get purchase recommendations."
        identity={rateIdentity}
        price={(r) => `${r.discount_percent} % off on demand`}
        canClose={rights.close}
        close={close}
      />
    </Section>
  );
}
