import { Router } from "express";
import type { DevIssuerKey } from "./dev-issuer";

/**
 * The development issuer's public key in the standard JWKS format (not the envelope: OpenID
 * Connect clients read it as is). Absent when the development issuer is off.
 */
export function jwksRoutes(key: DevIssuerKey | undefined): Router {
  const router = Router();
  if (!key) return router;
  router.get("/.well-known/jwks.json", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json({ keys: [key.publicJwk] });
  });
  return router;
}
