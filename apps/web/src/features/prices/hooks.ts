import type { PricingApiClient } from "@cloudcost/client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { priceKeys } from "./keys";

/** What the signed-in role may do with prices (the key's own role still decides on the server). */
export interface PriceRights {
  register: boolean;
  close: boolean;
}

type BodyOf<O extends keyof PricingApiClient> = NonNullable<Parameters<PricingApiClient[O]>[0]> extends { body?: infer B } ? B : never;
/** One entry of a registration body, as the pricing API takes it. */
export type ModelPriceInput = BodyOf<"registerModels">["entries"][number];
export type ComputePriceInput = BodyOf<"registerComputePrices">["entries"][number];
export type CommitmentRateInput = BodyOf<"registerCommitmentRates">["entries"][number];

/** The account of an API key of the pricing API: whether the key works, and whose it is. */
export function usePricingAccount(apiKey: string) {
  const { client } = useApp();
  return useQuery({
    queryKey: priceKeys.account(apiKey),
    queryFn: () => client.pricing.getAccount({ credential: apiKey }),
    enabled: !!apiKey,
    retry: false,
  });
}

/** The pricing API with the key the page was given (the pricing API takes API keys, not the sign-in token). */
function usePricing(apiKey: string, listKey: readonly unknown[]) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: listKey });
  return { pricing: client.pricing, credential: apiKey, refresh };
}

/** Model prices of the key's account, every version; register one, close one. */
export function useModelPrices(apiKey: string) {
  const { pricing, credential, refresh } = usePricing(apiKey, priceKeys.models(apiKey));
  const list = useQuery({ queryKey: priceKeys.models(apiKey), queryFn: () => pricing.listModels({ query: { include_closed: "true" }, credential }) });
  const register = useMutation({ mutationFn: (entry: ModelPriceInput) => pricing.registerModels({ body: { entries: [entry] }, credential }) });
  const close = useMutation({ mutationFn: (id: string) => pricing.closeModel({ query: { id }, credential }), onSuccess: refresh });
  return { list, register, close, refresh };
}

/** Negotiated compute prices of the key's account, every version; register one, close one. */
export function useComputePrices(apiKey: string) {
  const { pricing, credential, refresh } = usePricing(apiKey, priceKeys.compute(apiKey));
  const list = useQuery({ queryKey: priceKeys.compute(apiKey), queryFn: () => pricing.listComputePrices({ query: { include_closed: "true" }, credential }) });
  const register = useMutation({ mutationFn: (entry: ComputePriceInput) => pricing.registerComputePrices({ body: { entries: [entry] }, credential }) });
  const close = useMutation({ mutationFn: (id: string) => pricing.closeComputePrice({ query: { id }, credential }), onSuccess: refresh });
  return { list, register, close, refresh };
}

/** Commitment rates of the key's account, every version; register one, close one. */
export function useCommitmentRates(apiKey: string) {
  const { pricing, credential, refresh } = usePricing(apiKey, priceKeys.commitmentRates(apiKey));
  const list = useQuery({
    queryKey: priceKeys.commitmentRates(apiKey),
    queryFn: () => pricing.listCommitmentRates({ query: { include_closed: "true" }, credential }),
  });
  const register = useMutation({ mutationFn: (entry: CommitmentRateInput) => pricing.registerCommitmentRates({ body: { entries: [entry] }, credential }) });
  const close = useMutation({ mutationFn: (id: string) => pricing.closeCommitmentRate({ query: { id }, credential }), onSuccess: refresh });
  return { list, register, close, refresh };
}

/** Database rates of the key's account; delete one. */
export function useDatabaseRates(apiKey: string) {
  const { pricing, credential, refresh } = usePricing(apiKey, priceKeys.databases(apiKey));
  const list = useQuery({ queryKey: priceKeys.databases(apiKey), queryFn: () => pricing.listDatabases({ credential }) });
  const remove = useMutation({ mutationFn: (id: string) => pricing.deleteDatabase({ query: { id }, credential }), onSuccess: refresh });
  return { list, remove };
}

/** Pins of the key's account; pin a resource, unpin one. */
export function usePins(apiKey: string) {
  const { pricing, credential, refresh } = usePricing(apiKey, priceKeys.pins(apiKey));
  const list = useQuery({ queryKey: priceKeys.pins(apiKey), queryFn: () => pricing.listPins({ credential }) });
  const put = useMutation({
    mutationFn: (pin: { kind: "model" | "database"; resource_id: string; pricing_id: string }) =>
      pricing.putPin({ params: { kind: pin.kind, resource_id: pin.resource_id }, body: { pricing_id: pin.pricing_id }, credential }),
  });
  const remove = useMutation({
    mutationFn: (pin: { kind: "model" | "database"; resource_id: string }) => pricing.deletePin({ params: pin, credential }),
    onSuccess: refresh,
  });
  return { list, put, remove, refresh };
}
