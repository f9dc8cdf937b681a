/** The price book's query keys, each per API key (the pricing API's credential): a close or delete invalidates its list. */
export const priceKeys = {
  all: ["prices"] as const,
  account: (apiKey: string) => [...priceKeys.all, "account", apiKey] as const,
  models: (apiKey: string) => [...priceKeys.all, "models", apiKey] as const,
  compute: (apiKey: string) => [...priceKeys.all, "compute", apiKey] as const,
  commitmentRates: (apiKey: string) => [...priceKeys.all, "commitment-rates", apiKey] as const,
  databases: (apiKey: string) => [...priceKeys.all, "databases", apiKey] as const,
  pins: (apiKey: string) => [...priceKeys.all, "pins", apiKey] as const,
};
