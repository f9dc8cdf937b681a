import { type CloudCostClient, createClient } from "@cloudcost/client";
import type { RuntimeConfig } from "../../app/config";

export type { CloudCostClient };

/**
 * The console's client of both APIs (@cloudcost/client: every path, query and answer schema from the
 * route tables). `mainApiBase` is where the gateway serves the main API's `/api/...` paths (`/api` by
 * default), so the main API's root is that URL without its `/api`; `pricingApiBase` is the pricing
 * API's root (the gateway strips `/pricing`). A 401 of the main API to a request that carried the
 * session's token ends the session.
 */
export function consoleClient(config: Pick<RuntimeConfig, "mainApiBase" | "pricingApiBase">, token: () => string | undefined, onUnauthorized: () => void) {
  const client: CloudCostClient = createClient({
    mainUrl: config.mainApiBase.replace(/\/api\/?$/, ""),
    pricingUrl: config.pricingApiBase,
    token,
    onError: (error, { credentialSent }) => {
      if (error.status === 401 && credentialSent && error.operationId in client.main) onUnauthorized();
    },
  });
  return client;
}

/** Saves a blob as a file in the browser's downloads. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
