import type { CommitmentRate, CommitmentRateData, CommitmentTerm, CommitmentType, PaymentOption } from "@cloudcost/contracts";
import { iso, keyIn, keyOut, num, storedAmount } from "../store/columns";
import type { CommitmentRateRow, IDENTITY_COLUMNS } from "./repository";

type Identity = Pick<CommitmentRateRow, (typeof IDENTITY_COLUMNS)[number]>;

export const identityOf = (row: Identity): string =>
  JSON.stringify([row.provider, row.commitment_type, row.term_months, row.payment_option, row.service_category, row.region, row.family]);

/** The identity of an entry as stored (absent scope fields as ""). */
export function storedIdentity(entry: CommitmentRateData): Identity {
  return {
    provider: entry.provider,
    commitment_type: entry.commitment_type,
    term_months: entry.term_months,
    payment_option: entry.payment_option,
    service_category: keyIn(entry.service_category),
    region: keyIn(entry.region),
    family: keyIn(entry.family),
  };
}

export const storedDiscount = (entry: CommitmentRateData): string => storedAmount(entry.discount_percent);

export function toCommitmentRate(row: CommitmentRateRow): CommitmentRate {
  return {
    id: row.id,
    provider: row.provider,
    commitment_type: row.commitment_type as CommitmentType,
    term_months: row.term_months as CommitmentTerm,
    payment_option: row.payment_option as PaymentOption,
    service_category: keyOut(row.service_category),
    region: keyOut(row.region),
    family: keyOut(row.family),
    discount_percent: num(row.discount_percent),
    effective_from: iso(row.effective_from),
    effective_to: iso(row.effective_to),
  };
}
