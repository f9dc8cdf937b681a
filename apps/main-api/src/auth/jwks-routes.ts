import { Router } from "express";
import type { Config } from "../config";
import { loadDevIssuerKey } from "./dev-issuer";

/**
 * The development issuer's public key in the standard JWKS format (not the envelope: OpenID
 * Connect clients read it as is). Absent when the development issuer is off.
 */
export function jwksRoutes(auth: Config["auth"]): Router {
  const router = Router();
  if (!auth.devIssuer) return router;
  const key = loadDevIssuerKey(auth.devIssuerDir);
  router.get("/.well-known/jwks.json", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300").json({ keys: [key.publicJwk] });
  });
  return router;
}
