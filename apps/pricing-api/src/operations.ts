import type { pricingApiRoutes } from "@cloudcost/contracts";
import type { RouteHandlers } from "@cloudcost/http";

/** The handlers of some of the pricing API's declared operations (each route file supplies its own). */
export type Handlers<K extends keyof typeof pricingApiRoutes> = Pick<RouteHandlers<typeof pricingApiRoutes>, K>;
