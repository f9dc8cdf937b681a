/** Runtime configuration, served beside the bundle as /config.json (so one build runs anywhere). */
export type AuthConfig = { mode: "dev" } | { mode: "oidc"; authority: string; client_id: string; scope?: string; redirect_uri?: string };

export interface RuntimeConfig {
  auth: AuthConfig;
  /** Where the APIs are reached; the gateway's and `pnpm start`'s paths by default. */
  mainApiBase: string;
  pricingApiBase: string;
}

export async function loadConfig(): Promise<RuntimeConfig> {
  let raw: Partial<RuntimeConfig> = {};
  try {
    const res = await fetch("/config.json");
    if (res.ok) raw = (await res.json()) as Partial<RuntimeConfig>;
  } catch {
    // No config: the development defaults below.
  }
  return { auth: raw.auth ?? { mode: "dev" }, mainApiBase: raw.mainApiBase ?? "/api", pricingApiBase: raw.pricingApiBase ?? "/pricing" };
}
