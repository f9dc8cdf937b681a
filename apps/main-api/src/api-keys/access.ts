import { forbidden } from "@cloudcost/http";
import { isManager, type Principal } from "../auth/principal";

/** Keys are managed by owners and admins signed in as users: a key cannot mint or revoke keys. */
export function assertKeyManager(caller: Principal): void {
  if (caller.kind !== "user") throw forbidden("API keys cannot manage API keys: sign in as an owner or admin.");
  if (!isManager(caller.role)) throw forbidden(`Only owners and admins manage API keys; the caller is ${caller.role}.`);
}
