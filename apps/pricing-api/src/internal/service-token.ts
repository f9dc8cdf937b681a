import { verifyServiceToken } from "@cloudcost/credentials";
import type { SqlClient } from "@cloudcost/db";
import { unauthenticated, type Authenticate } from "@cloudcost/http";
import { rememberJti } from "./service-token-repository";

/** The ids of accepted service tokens, in the service's database so that every replica agrees. */
export interface ServiceTokenJtis {
  /** Records `jti` until `until`; false when it is already recorded (a replay). Prunes expired ids. */
  remember(jti: string, until: Date): Promise<boolean>;
}

export function serviceTokenJtis(sql: Pick<SqlClient, "query">): ServiceTokenJtis {
  return { remember: (jti, until) => rememberJti(sql, jti, until) };
}

export interface ServiceTokenCheck {
  secret: Uint8Array;
  jtis: ServiceTokenJtis;
}

/**
 * A service token signed for this request's method and path, not expired, and not seen before.
 * A token refused for another request is not used up.
 */
export function requireServiceToken({ secret, jtis }: ServiceTokenCheck): Authenticate {
  const refuse = () => unauthenticated("A valid service token is required for internal endpoints.");
  return async (req) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const path = req.originalUrl.split("?")[0];
    const verified = match ? await verifyServiceToken(secret, match[1], { method: req.method ?? "", path }) : null;
    if (!verified || !(await jtis.remember(verified.jti, verified.rememberUntil))) throw refuse();
  };
}
