/** Partner webhooks (src/domain/webhooks) and the inbound eSIM Access webhook. */

import ipaddr from 'ipaddr.js';
import { ConfigError, bool, optional, type Env } from './parse.js';
import { trustProxy } from './server.js';

export interface WebhooksConfig {
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private/loopback targets allowed (development, tests). */
    allowPrivateUrls: boolean;
    /**
     * ESIMACCESS_WEBHOOK_TOKEN: secret path segment of POST /webhooks/esim/esimaccess/<token> (and of
     * its alias /webhooks/esimaccess/<token>); unset = both answer 404.
     */
    esimAccessToken: string | undefined;
    /** ESIMACCESS_WEBHOOK_IPS: peer addresses allowed to call it; empty = any. */
    esimAccessAllowedIps: string[];
  };
}

export function webhooksConfig(env: Env): WebhooksConfig {
  const esimAccessToken = optional(env, 'ESIMACCESS_WEBHOOK_TOKEN');
  if (esimAccessToken !== undefined && !/^[A-Za-z0-9_-]{16,128}$/.test(esimAccessToken)) {
    throw new ConfigError('ESIMACCESS_WEBHOOK_TOKEN must be 16 to 128 characters of A-Z a-z 0-9 _ -');
  }
  const esimAccessAllowedIps = esimAccessIps(env);
  // The allow-list is checked against request.ip. TRUST_PROXY=true or a hop count believes
  // X-Forwarded-For from any peer, so a sender reaching the service directly could name a listed
  // address; only a list of proxy addresses keeps other peers' headers out (docs/partner-reference.md).
  const proxies = trustProxy(env);
  if (esimAccessAllowedIps.length > 0 && (proxies === true || typeof proxies === 'number')) {
    throw new ConfigError(
      'ESIMACCESS_WEBHOOK_IPS needs TRUST_PROXY unset or a list of proxy addresses/CIDRs, not true or a hop count',
    );
  }
  return {
    webhooks: {
      allowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
      esimAccessToken,
      esimAccessAllowedIps,
    },
  };
}

function esimAccessIps(env: Env): string[] {
  const ips = (optional(env, 'ESIMACCESS_WEBHOOK_IPS') ?? '')
    .split(',')
    .map((ip) => ip.trim())
    .filter((ip) => ip !== '');
  for (const ip of ips) {
    if (!ipaddr.isValid(ip)) {
      throw new ConfigError(
        `ESIMACCESS_WEBHOOK_IPS must be a comma-separated list of IP addresses, got "${ip}"`,
      );
    }
  }
  return ips;
}
