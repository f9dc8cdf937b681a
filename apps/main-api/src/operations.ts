import type { mainApiRoutes } from "@cloudcost/contracts";
import type { RouteHandlers } from "@cloudcost/http";

/** The handlers of some of the main API's declared operations (each route file supplies its own). */
export type Handlers<K extends keyof typeof mainApiRoutes> = Pick<RouteHandlers<typeof mainApiRoutes>, K>;
