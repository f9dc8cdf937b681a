import { verifyServiceToken } from "@cloudcost/credentials";
import type { SqlClient } from "@cloudcost/db";
import { unauthenticated, type Authenticate } from "@cloudcost/http";
import type { ServiceTokenRepository } from "./service-token-repository";

/** The ids of accepted service tokens, in the service's database so that every replica agrees. */
export interface ServiceTokenJtis {
  /** Records `jti` until `until`; false when it is already recorded (a replay). Prunes expired ids. */
  remember(jti: string, until: Date): Promise<boolean>;
}

export interface ServiceTokenJtisDeps {
  sql: Pick<SqlClient, "query">;
  tokens: ServiceTokenRepository;
}

/** Built once by compose.ts over the service-token repository. */
export function serviceTokenJtis({ sql, tokens }: ServiceTokenJtisDeps): ServiceTokenJtis {
  return { remember: (jti, until) => tokens.rememberJti(sql, jti, until) };
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
