import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to its addresses (injectable so tests can play DNS rebinding). */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

/** IPv4-compatible IPv6 (`::/96`, RFC 4291 §2.5.5.1, deprecated): stacks may route it to the IPv4. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** Global unicast (RFC 4291 §2.5.4): the only IPv6 space IANA hands out to public networks. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address may not be a webhook target, or null when it is a public unicast address.
 * ipaddr.js classifies it: anything but `unicast` (loopback, private, link-local — which holds
 * the 169.254.169.254 metadata service —, unique-local, carrier-grade NAT, reserved, multicast,
 * and the IPv6 forms that carry an IPv4 address inside: mapped ::ffff:0:0/96, translated
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32) is
 * refused. ipaddr.js calls IPv4-compatible `::/96` and everything outside 2000::/3 "unicast", yet
 * neither is globally routed and the first reaches the embedded IPv4 (`[::127.0.0.1]` is the
 * loopback on some stacks), so both are refused here too.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return 'is an IPv4-mapped IPv6 address';
    const range = v6.range();
    if (range !== 'unicast') return `is a ${range} address`;
    if (v6.match(IPV4_COMPATIBLE)) return 'is an IPv4-compatible IPv6 address';
    if (!v6.match(GLOBAL_UNICAST)) return 'is outside global unicast (2000::/3)';
    return null;
  }
  const range = parsed.range();
  return range === 'unicast' ? null : `is a ${range} address`;
}

export interface SafeTarget {
  url: URL;
  /** The checked address the request must connect to (never resolved a second time). */
  address: string;
  family: 4 | 6;
}

/**
 * Checks a webhook URL and resolves its host once. Refuses non-https URLs, credentials in the URL,
 * and hosts with any address that is not public; with `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS)
 * http and private addresses pass. The caller connects to `address`, so a DNS answer that changes
 * between this check and the connection (rebinding) cannot redirect the request.
 */
export async function resolveSafeTarget(
  raw: string,
  options: { allowPrivate: boolean; resolve?: Resolver },
): Promise<SafeTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('url is not a valid absolute URL');
  }
  const protocols = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol)) throw new UnsafeUrlError('url must use https');
  if (url.username || url.password) throw new UnsafeUrlError('url may not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new UnsafeUrlError('url has no host');

  let addresses: Array<{ address: string; family: 4 | 6 }>;
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      throw new UnsafeUrlError(`url host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new UnsafeUrlError(`url host ${host} does not resolve`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const reason = refusedAddressReason(address);
      if (reason) throw new UnsafeUrlError(`url host ${host} resolves to an address that ${reason}`);
    }
  }
  return { url, address: addresses[0]!.address, family: addresses[0]!.family };
}
