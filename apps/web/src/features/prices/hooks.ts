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

/**
 * A versioned price kind of the key's account, every version (closed ones too): `list`, `register` one
 * entry, `close` one (the list is asked again after a close; after a register, `refresh` it).
 */
function useVersionedPrices<L, E>(
  apiKey: string,
  listKey: readonly unknown[],
  api: (pricing: PricingApiClient, credential: string) => { list(): Promise<L>; register(entry: E): Promise<unknown>; close(id: string): Promise<unknown> },
) {
  const { pricing, credential, refresh } = usePricing(apiKey, listKey);
  const calls = api(pricing, credential);
  const list = useQuery({ queryKey: listKey, queryFn: () => calls.list() });
  const register = useMutation({ mutationFn: (entry: E) => calls.register(entry) });
  const close = useMutation({ mutationFn: (id: string) => calls.close(id), onSuccess: refresh });
  return { list, register, close, refresh };
}

/** Model prices of the key's account, every version; register one, close one. */
export const useModelPrices = (apiKey: string) =>
  useVersionedPrices(apiKey, priceKeys.models(apiKey), (pricing, credential) => ({
    list: () => pricing.listModels({ query: { include_closed: "true" }, credential }),
    register: (entry: ModelPriceInput) => pricing.registerModels({ body: { entries: [entry] }, credential }),
    close: (id) => pricing.closeModel({ query: { id }, credential }),
  }));

/** Negotiated compute prices of the key's account, every version; register one, close one. */
export const useComputePrices = (apiKey: string) =>
  useVersionedPrices(apiKey, priceKeys.compute(apiKey), (pricing, credential) => ({
    list: () => pricing.listComputePrices({ query: { include_closed: "true" }, credential }),
    register: (entry: ComputePriceInput) => pricing.registerComputePrices({ body: { entries: [entry] }, credential }),
    close: (id) => pricing.closeComputePrice({ query: { id }, credential }),
  }));

/** Commitment rates of the key's account, every version; register one, close one. */
export const useCommitmentRates = (apiKey: string) =>
  useVersionedPrices(apiKey, priceKeys.commitmentRates(apiKey), (pricing, credential) => ({
    list: () => pricing.listCommitmentRates({ query: { include_closed: "true" }, credential }),
    register: (entry: CommitmentRateInput) => pricing.registerCommitmentRates({ body: { entries: [entry] }, credential }),
    close: (id) => pricing.closeCommitmentRate({ query: { id }, credential }),
  }));

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
