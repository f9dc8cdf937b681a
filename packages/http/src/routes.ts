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

/**
 * The route pattern a request matched (`/api/v1/organizations/:org_id/users/:id`), without a
 * trailing slash; undefined for 404s. Never the request's own ids: `req.baseUrl` is the text the
 * mounts matched (`/api/v1/organizations/org_123/users`), so it is mapped back to the mount's pattern.
 */
export function matchedRoute(req: Request): string | undefined {
  const path = req.route?.path;
  if (typeof path !== "string") return undefined;
  const route = mountPatternOf(req) + path;
  return route.length > 1 && route.endsWith("/") ? route.slice(0, -1) : route;
}

interface Mounts {
  /** Mount patterns without parameters, by their lower-case text (routing is case-insensitive). */
  literal: Map<string, string>;
  parametrised: { pattern: string; regexp: RegExp }[];
}

const MOUNTS = Symbol("mount patterns");
const UNKNOWN_MOUNT = "<mount>";

function mountPatternOf(req: Request): string {
  const base = req.baseUrl;
  if (!base) return "";
  const app = req.app as Express & { [MOUNTS]?: Mounts };
  for (let attempt = 0; attempt < 2; attempt++) {
    // Built once per app at its first request; again if a router was mounted after that.
    let mounts = attempt === 0 ? app[MOUNTS] : undefined;
    if (!mounts) {
      mounts = mountsOf(app);
      app[MOUNTS] = mounts;
    }
    const literal = mounts.literal.get(base.toLowerCase());
    if (literal !== undefined) return literal;
    const found = mounts.parametrised.find((m) => m.regexp.test(base));
    if (found) return found.pattern;
  }
  return UNKNOWN_MOUNT;
}

/** The full pattern of every router mounted in the app (mount paths joined), as listRoutes walks them. */
function mountsOf(app: Express): Mounts {
  const mounts: Mounts = { literal: new Map(), parametrised: [] };
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route || !layer.handle?.stack) continue;
      const here = typeof layer.rawPath === "string" && layer.rawPath !== "/" ? prefix + layer.rawPath : prefix;
      const pattern = here.length > 1 && here.endsWith("/") ? here.slice(0, -1) : here;
      if (pattern && /[:*]/.test(pattern)) mounts.parametrised.push({ pattern, regexp: patternRegExp(pattern) });
      else if (pattern) mounts.literal.set(pattern.toLowerCase(), pattern);
      walk(layer.handle.stack, here);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
  return mounts;
}

/** `/a/:id/b` -> /^\/a\/[^/]+\/b$/i (`*name` matches one or more segments). */
function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/:[A-Za-z0-9_]+/g, "[^/]+")
    .replace(/\*[A-Za-z0-9_]+/g, ".+");
  return new RegExp(`^${source}$`, "i");
}
