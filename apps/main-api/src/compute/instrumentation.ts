import type { Metrics } from "@cloudcost/http";
import { AnalysisBusyError, type Analyzer } from "./analysis";
import { type ComputeCatalogs, PricingUnavailableError } from "./catalog-prices";

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

/** Catalog loads from the pricing API by outcome (`ok`, `pricing_unavailable`, `error`); cache hits count as `ok`. */
export function instrumentCatalogs(catalogs: ComputeCatalogs, metrics: Metrics): ComputeCatalogs {
  const calls = metrics.counter("pricing_client_calls_total", "Calls of the pricing API client by operation and outcome", ["operation", "outcome"]);
  return {
    async catalog(key) {
      try {
        const rows = await catalogs.catalog(key);
        calls.inc({ operation: "instance_types", outcome: "ok" });
        return rows;
      } catch (err) {
        calls.inc({ operation: "instance_types", outcome: outcomeOf(err) });
        throw err;
      }
    },
  };
}
