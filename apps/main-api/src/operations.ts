import type { mainApiRoutes, RouteTable } from "@cloudcost/contracts";
import type { RouteHandler } from "@cloudcost/http";
import type { ContextOf } from "./context";

type Routes = typeof mainApiRoutes;

/** The handlers of every operation of a slice of the route table, each given its operation's context. */
export type HandlersOf<S extends RouteTable> = { [P in keyof S]: RouteHandler<S[P], ContextOf<S[P]>> };

/** The handlers of some of the main API's declared operations (a domain's `handlers.ts`: `Handlers<keyof typeof itsSlice>`). */
export type Handlers<K extends keyof Routes> = HandlersOf<Pick<Routes, K>>;
