import type { pricingApiRoutes } from "@cloudcost/contracts";
import type { RouteHandler } from "@cloudcost/http";
import type { ContextOf } from "./context";

type Routes = typeof pricingApiRoutes;

/** The handlers of some of the pricing API's declared operations (each route file supplies its own), each given its operation's context. */
export type Handlers<K extends keyof Routes> = { [P in K]: RouteHandler<Routes[P], ContextOf<Routes[P]>> };
