import { forbidden } from "@cloudcost/http";
import type { Principal } from "../auth/principal";

/**
 * Keys are managed by people signed in: a key cannot mint or revoke keys. (That they are owners or
 * admins is the route table's `roles`, checked before the handler.)
 */
export function assertSignedInUser(caller: Principal): void {
  if (caller.kind !== "user") throw forbidden("API keys cannot manage API keys: sign in as an owner or admin.");
}
