import dns from "node:dns";
import net from "node:net";

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to every address it has (injectable: tests answer private addresses for public names). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

// Not routable on the public internet (RFC 6890 special-purpose registries), or reaching the host
// itself. An IPv4-mapped IPv6 address (::ffff:0:0/96) is judged by the IPv4 address it carries, in
// whatever spelling (refusedAddress maps it, not BlockList).
const V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6: [string, number][] = [
  // Unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d, which no receiver needs.
  ["::", 96],
  // IPv4-translated (SIIT) ::ffff:0:a.b.c.d embeds an IPv4 address too.
  ["::ffff:0:0:0", 96],
  // NAT64, Teredo and 6to4 embed IPv4 addresses that could be private.
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
const BLOCKED = new net.BlockList();
for (const [address, prefix] of V4) BLOCKED.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of V6) BLOCKED.addSubnet(address, prefix, "ipv6");

/** Why an address may not be a webhook target (private, loopback, link-local...), or undefined when it may. */
export function refusedAddress(address: string): string | undefined {
  const family = net.isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const mapped = family === 6 ? mappedIPv4(address) : undefined;
  const refused = mapped ? BLOCKED.check(mapped, "ipv4") : BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
  return refused ? `${address} is a private, loopback, link-local or reserved address` : undefined;
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) carries, or undefined for any other address. */
function mappedIPv4(address: string): string | undefined {
  // The URL parser writes an IPv6 host one way: lower-case hex, longest zero run compressed, no dotted quad.
  const host = new URL(`http://[${address.replace(/%.*$/, "")}]/`).hostname;
  const words = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!words) return undefined;
  const [high, low] = [Number.parseInt(words[1], 16), Number.parseInt(words[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** A target the service will not send to; the message says why. */
export class RefusedTarget extends Error {}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Checks a webhook URL before it is stored: https only, and no host that is or resolves to a refused
 * address. A name that does not resolve (yet) is accepted: every delivery checks again.
 */
export async function checkTarget(raw: string, resolve: Resolve): Promise<void> {
  const url = new URL(raw);
  if (url.protocol !== "https:") throw new RefusedTarget(`the URL must use https (got ${url.protocol.replace(":", "")})`);
  const host = hostOf(url);
  if (net.isIP(host)) {
    const reason = refusedAddress(host);
    if (reason) throw new RefusedTarget(reason);
    return;
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return;
  }
  for (const { address } of addresses) {
    const reason = refusedAddress(address);
    if (reason) throw new RefusedTarget(`${host} resolves to ${reason}`);
  }
}

/**
 * A `lookup` for the outgoing connection: it resolves once, refuses the name when any address is
 * refused, and hands the connection exactly the addresses it checked (no second resolution that a
 * rebinding DNS server could answer differently).
 */
export function guardedLookup(resolve: Resolve): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map((a) => refusedAddress(a.address)).find(Boolean);
        if (refused || addresses.length === 0) {
          callback(new RefusedTarget(`${hostname} resolves to ${refused ?? "no address"}`) as NodeJS.ErrnoException, "", 4);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (options.all) (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, wanted);
        else callback(null, wanted[0]?.address ?? "", wanted[0]?.family ?? 4);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 4),
    );
  };
}
