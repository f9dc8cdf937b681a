import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { z } from "zod";
import { forbidden, parseOr400 } from "@cloudcost/http";
import { mintDevToken, type DevIssuerKey } from "./dev-issuer";

export const DEV_TOKEN_PATH = "/api/v1/dev/token";
const TTL_SECONDS = 3600;
export const DevTokenRequest = z.object({ email: z.email() });

/** What the development sign-in reads of a request: where it came from, the host it names, its body. */
export interface DevSignInRequest {
  remoteAddress: string | undefined;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * The console's development sign-in: a verified token for any e-mail address. Anyone who reaches it
 * is anyone, so it exists only while the development issuer is on (the app factory mounts it then),
 * and answers only clients on this machine: the connection and every forwarding header must name a
 * loopback address (a proxy in front that forwards a remote client's address gets a 403), and the
 * host the request names (Host, X-Forwarded-Host, Forwarded host=) must be a loopback name: a page
 * whose own name was made to resolve to 127.0.0.1 (DNS rebinding) reaches the API from loopback,
 * but names its own host.
 */
export async function devSignIn(key: DevIssuerKey, req: DevSignInRequest): Promise<{ token: string; expires_at: string }> {
  if (!fromLoopback(req) || !namesLoopback(req)) {
    throw forbidden("The development sign-in answers only clients on the machine the main API runs on (loopback), at localhost");
  }
  const { email } = parseOr400(DevTokenRequest, req.body ?? {});
  const token = await mintDevToken(key, { email, ttlSeconds: TTL_SECONDS });
  return { token, expires_at: new Date(Date.now() + TTL_SECONDS * 1000).toISOString() };
}

/** The development issuer's public key as a standard JWKS document (OpenID Connect clients read it as is). */
export const devJwks = (key: DevIssuerKey) => ({ keys: [key.publicJwk] });

function fromLoopback(req: DevSignInRequest): boolean {
  const forwarded = [
    ...headerValues(req, "x-forwarded-for").flatMap((value) => value.split(",")),
    ...headerValues(req, "x-real-ip"),
    ...forwardedParams(req, "for").map((value) => value.replace(/^\[|\](:\d+)?$/g, "")),
  ];
  return [req.remoteAddress ?? "", ...forwarded].every((address) => isLoopback(address.trim()));
}

function namesLoopback(req: DevSignInRequest): boolean {
  const hosts = [...headerValues(req, "host"), ...headerValues(req, "x-forwarded-host").flatMap((value) => value.split(",")), ...forwardedParams(req, "host")];
  return hosts.every((host) => isLoopbackHost(host.trim()));
}

/** `localhost`, `127.x.x.x` or `[::1]`, with or without a port. */
function isLoopbackHost(host: string): boolean {
  const name = /^(\[::1\]|[^:[\]]+)(:\d{1,5})?$/.exec(host.toLowerCase())?.[1];
  return name === "localhost" || name === "[::1]" || (name !== undefined && isIP(name) === 4 && name.startsWith("127."));
}

/** The values of one parameter (`for`, `host`) of the Forwarded header (RFC 7239), unquoted. */
function forwardedParams(req: DevSignInRequest, param: string): string[] {
  return headerValues(req, "forwarded")
    .flatMap((value) => value.split(/[,;]/))
    .map((part) => part.trim())
    .filter((part) => part.toLowerCase().startsWith(`${param}=`))
    .map((part) => part.slice(param.length + 1).replace(/^"|"$/g, ""));
}

function headerValues(req: DevSignInRequest, name: string): string[] {
  const value = req.headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function isLoopback(address: string): boolean {
  const plain = address.replace(/^::ffff:/i, "");
  if (isIP(plain) === 4) return plain.startsWith("127.");
  return isIP(plain) === 6 && plain === "::1";
}
