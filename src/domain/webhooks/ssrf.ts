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

/**
 * Why an address may not be a webhook target, or null when it is a public unicast address.
 * ipaddr.js classifies it: anything but `unicast` (loopback, private, link-local — which holds
 * the 169.254.169.254 metadata service —, unique-local, carrier-grade NAT, reserved, multicast,
 * IPv4-mapped/translated IPv6, …) is refused.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return 'is an IPv4-mapped IPv6 address';
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
