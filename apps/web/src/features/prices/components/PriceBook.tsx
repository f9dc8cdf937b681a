import { CommitmentRates } from "./CommitmentRates";
import { ComputePrices } from "./ComputePrices";
import { DatabaseRates } from "./DatabaseRates";
import { ModelPrices } from "./ModelPrices";
import { Pins } from "./Pins";
import type { PriceRights } from "../hooks";

export type { PriceRights };

/** Model prices, negotiated compute prices, commitment rates, database rates and pins of the key's pricing account. */
export function PriceBook({ apiKey, rights }: { apiKey: string; rights: PriceRights }) {
  return (
    <>
      <ModelPrices apiKey={apiKey} rights={rights} />
      <ComputePrices apiKey={apiKey} rights={rights} />
      <CommitmentRates apiKey={apiKey} rights={rights} />
      <DatabaseRates apiKey={apiKey} rights={rights} />
      <Pins apiKey={apiKey} rights={rights} />
    </>
  );
}
