/**
 * The gateway's steering of the tunnel's web traffic through its squid (`table ip palisade_steer`, a nat
 * prerouting chain at priority dstnat): new TCP connections arriving on the tunnel interface to port 80 are
 * redirected to squid's intercepting HTTP port, to port 443 to its intercepting HTTPS port (which peeks at the
 * TLS server name and splices or terminates, never decrypting). Connections to the gateway itself are not
 * steered, except plain HTTP to its own tunnel addresses: that is a name the resolver blocked with the block page
 * (answered with the gateway's address), which goes to squid's block-page port and is redirected to the console.
 *
 * The policy's network layer decides these flows before the redirect (its prerouting filter chain at -150), so
 * a network block stays a network block. Like the policy's table, the file declares, deletes and declares
 * its table again, so `nft -f` replaces the previous one in one transaction.
 */

import { parseIpOrCidr } from '@palisade/contracts';
import { GatewayConfigError } from './common';

export const STEERING_TABLE = 'palisade_steer';

/** squid's local ports on the gateway (the defaults of {@link SteeringOptions}). */
export const SQUID_PORTS = { forward: 3127, http: 3128, https: 3129, page: 3130 } as const;

export interface SteeringOptions {
  /** The tunnel interface whose traffic is steered. */
  interfaceName: string;
  /** The gateway's own IPv4 addresses on it: plain HTTP to them goes to the block-page port. */
  gatewayAddresses: readonly string[];
  httpPort?: number;
  httpsPort?: number;
  pagePort?: number;
}

const port = (name: string, value: number) => {
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new GatewayConfigError('invalid-option', name, `${name}: a port from 1 to 65535`);
  }
  return value;
};

/** The steering ruleset (nft -f text). */
export function steeringRuleset(options: SteeringOptions): string {
  if (!/^[A-Za-z0-9_.-]{1,15}$/.test(options.interfaceName)) {
    throw new GatewayConfigError('invalid-option', 'interfaceName', 'interfaceName: an interface name');
  }
  const http = port('httpPort', options.httpPort ?? SQUID_PORTS.http);
  const https = port('httpsPort', options.httpsPort ?? SQUID_PORTS.https);
  const page = port('pagePort', options.pagePort ?? SQUID_PORTS.page);
  // Their addresses without the prefix (`10.64.0.1/16` → `10.64.0.1`); IPv4 only, as the table is `ip`.
  const own = [
    ...new Set(
      options.gatewayAddresses.flatMap((a) => {
        const b = parseIpOrCidr(a);
        return b?.family === 4 ? [b.host] : [];
      }),
    ),
  ];
  const iif = `iifname "${options.interfaceName}"`;
  return [
    '# Palisade: the tunnel web traffic through the gateway squid. Generated: do not edit.',
    `table ip ${STEERING_TABLE}`,
    `delete table ip ${STEERING_TABLE}`,
    `table ip ${STEERING_TABLE} {`,
    '  chain prerouting {',
    '    type nat hook prerouting priority dstnat; policy accept;',
    ...(own.length
      ? [
          '    # plain HTTP to the gateway itself: a DNS block with the block page',
          `    ${iif} ip daddr { ${own.sort().join(', ')} } tcp dport 80 ct state new redirect to :${page}`,
        ]
      : []),
    '    # the gateway own services stay as they are',
    `    ${iif} fib daddr type local accept`,
    `    ${iif} tcp dport 80 ct state new redirect to :${http}`,
    `    ${iif} tcp dport 443 ct state new redirect to :${https}`,
    '  }',
    '}',
    '',
  ].join('\n');
}
