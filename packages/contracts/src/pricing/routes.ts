import { pricingAccountRoutes } from "./account/routes.js";
import { pricingCommitmentRateRoutes } from "./commitment-rates/routes.js";
import { pricingComputePriceRoutes } from "./compute-prices/routes.js";
import { pricingComputeRoutes } from "./compute/routes.js";
import { pricingDatabaseRoutes } from "./databases/routes.js";
import { pricingHealthRoutes } from "./health/routes.js";
import { pricingInternalRoutes } from "./internal/routes.js";
import { pricingModelRoutes } from "./models/routes.js";
import { pricingPinRoutes, pricingReportRoutes } from "./references/routes.js";
import { pricingUsageRoutes } from "./usage/routes.js";

/** Every public operation of the pricing API: the domains' slices (`pricing/<domain>/routes.ts`), in the order they are matched. */
export const pricingPublicRoutes = {
  // The compute price query is the hot path (every right-sizing recommendation): matched first.
  ...pricingComputeRoutes,
  ...pricingAccountRoutes,
  ...pricingModelRoutes,
  ...pricingDatabaseRoutes,
  ...pricingComputePriceRoutes,
  ...pricingCommitmentRateRoutes,
  ...pricingPinRoutes,
  ...pricingUsageRoutes,
  ...pricingReportRoutes,
  ...pricingHealthRoutes,
} as const;

/** Every operation of the pricing API: the public ones and the service-token `/internal` ones. */
export const pricingApiRoutes = { ...pricingPublicRoutes, ...pricingInternalRoutes } as const;
