import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from "jose";
import { unauthenticated } from "@cloudcost/http";
import type { Config } from "../config";
import { DEV_AUDIENCE, DEV_ISSUER, type DevIssuerKey } from "./dev-issuer";
import { normalizeEmail } from "./email";

/** Who a verified identity-provider token says the caller is. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

const CLOCK_TOLERANCE_SECONDS = 30;
/** The oldest token accepted, by its `iat`, whatever its `exp` says. */
const MAX_TOKEN_AGE = "24h";
/** Every token must say when it was issued and when it expires (iat in the future is refused by jose's maxTokenAge check). */
const TIME_CLAIMS = { requiredClaims: ["exp", "iat"], maxTokenAge: MAX_TOKEN_AGE, clockTolerance: CLOCK_TOLERANCE_SECONDS };
const MAX_CLAIM_LENGTH = 255;

export interface TokenVerifier {
  /** Verifies a bearer JWT from the configured provider or the development issuer; throws a 401 otherwise. */
  verify(token: string): Promise<VerifiedIdentity>;
}

interface IssuerKeys {
  devIssuer?: DevIssuerKey;
  /** The provider's JWKS client: jose caches the keys and refetches on an unknown kid. */
  provider?: ReturnType<typeof createRemoteJWKSet>;
}

/** One verifier per app, holding the issuers' keys (built once by the composition root). */
export function createTokenVerifier(auth: Config["auth"], devIssuerKey: DevIssuerKey | undefined): TokenVerifier {
  const keys: IssuerKeys = { devIssuer: devIssuerKey, provider: auth.provider ? createRemoteJWKSet(new URL(auth.provider.jwksUrl)) : undefined };
  return { verify: (token) => verifyIdentityToken(auth, keys, token) };
}

async function verifyIdentityToken(auth: Config["auth"], keys: IssuerKeys, token: string): Promise<VerifiedIdentity> {
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    throw unauthenticated("The bearer token is neither an API key (bl_...) nor a well-formed JWT.");
  }
  let payload: JWTPayload;
  try {
    if (auth.devIssuer && keys.devIssuer && issuer === DEV_ISSUER) {
      ({ payload } = await jwtVerify(token, keys.devIssuer.publicKey, {
        issuer: DEV_ISSUER,
        audience: DEV_AUDIENCE,
        algorithms: ["EdDSA"],
        ...TIME_CLAIMS,
      }));
    } else if (auth.provider && keys.provider && issuer === auth.provider.issuer) {
      ({ payload } = await jwtVerify(token, keys.provider, {
        issuer: auth.provider.issuer,
        audience: auth.provider.audience,
        algorithms: auth.algorithms,
        ...TIME_CLAIMS,
      }));
    } else {
      throw unauthenticated("The token's issuer is not trusted by this service.");
    }
  } catch (err) {
    throw toUnauthenticated(err);
  }
  const subject = payload.sub;
  if (typeof subject !== "string" || !subject || subject.length > MAX_CLAIM_LENGTH) {
    throw unauthenticated("The token has no usable 'sub' claim.");
  }
  const email = typeof payload.email === "string" && payload.email.includes("@") ? normalizeEmail(payload.email) : null;
  // Some providers send the flag as a string.
  const emailVerified = payload.email_verified === true || payload.email_verified === "true";
  return { issuer: payload.iss as string, subject, email, emailVerified: emailVerified && email !== null };
}

function toUnauthenticated(err: unknown) {
  if (err instanceof errors.JWTExpired) {
    return unauthenticated(err.claim === "iat" ? "The token is older than the 24 hours this service accepts: get a new one." : "The token has expired.");
  }
  if (err instanceof errors.JWTClaimValidationFailed) return unauthenticated(`The token's '${err.claim}' claim is not valid here.`);
  if (err instanceof errors.JOSEAlgNotAllowed) return unauthenticated("The token's signing algorithm is not accepted.");
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) {
    return unauthenticated("The token's signature does not verify against the issuer's keys.");
  }
  if (err instanceof errors.JOSEError) return unauthenticated("The token is not valid.");
  if (err instanceof Error && "status" in err) return err;
  return unauthenticated("The token could not be verified.");
}
