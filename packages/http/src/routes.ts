import type { Express, Request } from "express";
import { OPERATION_ID } from "./bind";

interface Layer {
  name: string;
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean>; stack: Layer[] };
  handle: { stack?: Layer[]; [OPERATION_ID]?: string };
}

export interface RegisteredRoute {
  method: string;
  /** OpenAPI style: `/users/{id}`. */
  path: string;
  /** The declared operation the route was registered from (registerRoutes); undefined for a hand-written route. */
  operationId?: string;
}

/** Every route the app registers, with mount paths joined (for checking the OpenAPI document). */
export function listRoutes(app: Express): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const here = typeof layer.rawPath === "string" && layer.rawPath !== "/" ? prefix + layer.rawPath : prefix;
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (!on || method === "_all") continue;
          const operationId = layer.route.stack.map((l) => l.handle[OPERATION_ID]).find((id) => id !== undefined);
          routes.push({ method, path: toOpenApi(prefix + layer.route.path), ...(operationId ? { operationId } : {}) });
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, here);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
  return routes;
}

function toOpenApi(path: string): string {
  const clean = path.length > 1 ? path.replace(/\/$/, "") : path;
  return clean.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** The route pattern a request matched (`/v1/pricing/compute/batch`), without a trailing slash; undefined for 404s. */
export function matchedRoute(req: Request): string | undefined {
  const path = req.route?.path;
  if (!path) return undefined;
  const route = req.baseUrl + path;
  return route.length > 1 && route.endsWith("/") ? route.slice(0, -1) : route;
}
