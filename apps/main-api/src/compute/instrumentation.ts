import type { Metrics } from "@cloudcost/http";
import { AnalysisBusyError, type Analyzer } from "./analysis";
import { PricingUnavailableError, type PricingClient } from "./pricing-client";

const outcomeOf = (err: unknown) => (err instanceof PricingUnavailableError ? "pricing_unavailable" : err instanceof AnalysisBusyError ? "busy" : "error");

/** Analysis cycle duration and outcome (`ok`, `pricing_unavailable`, `busy`, `error`) for Prometheus. */
export function instrumentAnalyzer(analyzer: Analyzer, metrics: Metrics): Analyzer {
  const cycles = metrics.histogram(
    "compute_analysis_cycle_duration_seconds",
    "Duration of compute analysis cycles by outcome",
    ["outcome"],
    [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  );
  return {
    async analyzeTenant(tenant, settings) {
      const end = cycles.startTimer();
      try {
        const result = await analyzer.analyzeTenant(tenant, settings);
        end({ outcome: "ok" });
        return result;
      } catch (err) {
        end({ outcome: outcomeOf(err) });
        throw err;
      }
    },
  };
}

/** Pricing client calls by operation and outcome (`ok`, `pricing_unavailable`, `error`). */
export function instrumentPricing(pricing: PricingClient, metrics: Metrics): PricingClient {
  const calls = metrics.counter("pricing_client_calls_total", "Calls of the pricing API client by operation and outcome", ["operation", "outcome"]);
  const count = async <T>(operation: string, call: () => Promise<T>): Promise<T> => {
    try {
      const result = await call();
      calls.inc({ operation, outcome: "ok" });
      return result;
    } catch (err) {
      calls.inc({ operation, outcome: outcomeOf(err) });
      throw err;
    }
  };
  return {
    instanceTypes: (key) => count("instance_types", () => pricing.instanceTypes(key)),
    prices: (keys) => count("prices", () => pricing.prices(keys)),
  };
}
