import { isIP } from "node:net";
import { Router, type Request } from "express";
import { z } from "zod";
import { forbidden, parseOr400 } from "@cloudcost/http";
import { mintDevToken, type DevIssuerKey } from "./dev-issuer";

export const DEV_TOKEN_PATH = "/api/v1/dev/token";
const TTL_SECONDS = 3600;
export const DevTokenRequest = z.object({ email: z.email() });

/**
 * The console's development sign-in: a verified token for any e-mail address. Anyone who reaches it
 * is anyone, so it exists only while the development issuer is on, and answers only clients on this
 * machine: the connection and every forwarding header must name a loopback address (a proxy in
 * front that forwards a remote client's address gets a 403), and the host the request names (Host,
 * X-Forwarded-Host, Forwarded host=) must be a loopback name: a page whose own name was made to
 * resolve to 127.0.0.1 (DNS rebinding) reaches the API from loopback, but names its own host.
 */
export function devTokenRoutes(key: DevIssuerKey | undefined): Router {
  const router = Router();
  if (!key) return router;
  router.post(DEV_TOKEN_PATH, async (req, res) => {
    if (!fromLoopback(req) || !namesLoopback(req)) {
      throw forbidden("The development sign-in answers only clients on the machine the main API runs on (loopback), at localhost");
    }
    const { email } = parseOr400(DevTokenRequest, req.body ?? {});
    const token = await mintDevToken(key, { email, ttlSeconds: TTL_SECONDS });
    const expiresAt = new Date(Date.now() + TTL_SECONDS * 1000).toISOString();
    res.set("Cache-Control", "no-store").json({ message: "Development token minted", status: "success", data: { token, expires_at: expiresAt } });
  });
  return router;
}

function fromLoopback(req: Request): boolean {
  const forwarded = [
    ...headerValues(req, "x-forwarded-for").flatMap((value) => value.split(",")),
    ...headerValues(req, "x-real-ip"),
    ...forwardedParams(req, "for").map((value) => value.replace(/^\[|\](:\d+)?$/g, "")),
  ];
  return [req.socket.remoteAddress ?? "", ...forwarded].every((address) => isLoopback(address.trim()));
}

function namesLoopback(req: Request): boolean {
  const hosts = [...headerValues(req, "host"), ...headerValues(req, "x-forwarded-host").flatMap((value) => value.split(",")), ...forwardedParams(req, "host")];
  return hosts.every((host) => isLoopbackHost(host.trim()));
}

/** `localhost`, `127.x.x.x` or `[::1]`, with or without a port. */
function isLoopbackHost(host: string): boolean {
  const name = /^(\[::1\]|[^:[\]]+)(:\d{1,5})?$/.exec(host.toLowerCase())?.[1];
  return name === "localhost" || name === "[::1]" || (name !== undefined && isIP(name) === 4 && name.startsWith("127."));
}

/** The values of one parameter (`for`, `host`) of the Forwarded header (RFC 7239), unquoted. */
function forwardedParams(req: Request, param: string): string[] {
  return headerValues(req, "forwarded")
    .flatMap((value) => value.split(/[,;]/))
    .map((part) => part.trim())
    .filter((part) => part.toLowerCase().startsWith(`${param}=`))
    .map((part) => part.slice(param.length + 1).replace(/^"|"$/g, ""));
}

function headerValues(req: Request, name: string): string[] {
  const value = req.headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function isLoopback(address: string): boolean {
  const plain = address.replace(/^::ffff:/i, "");
  if (isIP(plain) === 4) return plain.startsWith("127.");
  return isIP(plain) === 6 && plain === "::1";
}
