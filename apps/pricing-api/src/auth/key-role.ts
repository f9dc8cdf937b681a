import type { RequestHandler } from "express";
import { KEY_ROLES, type KeyRole } from "@cloudcost/contracts";
import { forbidden } from "@cloudcost/http";

/** The role of the request's key; a key stored without one acts as admin (keys made before roles). */
function roleOf(auth: object | undefined): KeyRole {
  const role = auth && "role" in auth ? auth.role : undefined;
  return KEY_ROLES.find((known) => known === role) ?? "admin";
}

/** 403 `forbidden` unless the key's role is at least `min` (viewer < member < admin); after requireApiKey. */
export function keyRoleAtLeast(min: KeyRole): RequestHandler {
  const needed = KEY_ROLES.indexOf(min);
  return (req, _res, next) => {
    const role = roleOf(req.auth);
    if (KEY_ROLES.indexOf(role) < needed) return next(forbidden(`This operation needs a ${min} key or higher; this key is a ${role} key.`));
    next();
  };
}
