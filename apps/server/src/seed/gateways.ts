import { generateKeyPairSync } from 'node:crypto';
import { type GatewayKind, GwHeartbeat, type GwLan } from '@palisade/contracts';
import type { Database } from '../db/client';
import type { Ctx } from '../lib/context';
import * as gateways from '../modules/gateways/gateways.service';
import { createPolicyCache } from '../modules/policy-core/policy-core.service';

/**
 * The demo's cybernodes and site gateways: [name, kind, region, host name once enrolled (null: pending)]. HQ
 * Berlin answers to `hq-cybernode`, the gateway the demo's route policy sends the corporate networks through.
 */
const DEMO_GATEWAYS: Array<[string, GatewayKind, string, string | null]> = [
  ['Frankfurt PoP', 'cybernode', 'eu-central', 'fra1'],
  ['Dublin PoP', 'cybernode', 'eu-west', 'dub1'],
  ['Virginia PoP', 'cybernode', 'us-east', 'iad1'],
  ['Singapore PoP', 'cybernode', 'ap-southeast', null],
  ['Own node Hamburg', 'virtual', 'eu-central', null],
  ['HQ Berlin', 'cgw', 'eu-central', 'hq-cybernode'],
  ['Branch Munich', 'lgw', 'eu-central', 'munich-gw'],
  ['Store Cologne', 'cgwr', 'eu-central', 'cologne-gw'],
];

/**
 * What the site gateways see on their LANs (DHCP leases and ARP entries), reported in their heartbeats as a real
 * one reports them — [MAC, IP, DHCP host name (null: an ARP entry), interface]: MAC addresses of real vendors'
 * OUIs (the vendor is looked up, not seeded) and one phone with a private (locally administered) address, which
 * has none. HQ Berlin's LAN is the HQ location's 10.10.0.0/16.
 */
const DEMO_LANS: Record<string, Array<[string, string, string | null, string]>> = {
  'HQ Berlin': [
    ['50:81:40:3a:1c:07', '10.10.1.20', 'hq-printer-2og', 'eth1'], // HP Inc.
    ['00:11:32:9e:41:d2', '10.10.1.5', 'hq-nas', 'eth1'], // Synology
    ['60:22:32:b4:07:e9', '10.10.1.2', null, 'eth1'], // Ubiquiti access point
    ['f0:18:98:52:6a:11', '10.10.2.41', 'Annas-iPhone', 'eth1'], // Apple
    ['10:30:47:c8:9d:3e', '10.10.2.57', 'Galaxy-S24', 'eth1'], // Samsung
    ['da:a1:19:5f:22:80', '10.10.2.63', 'Pixel-8', 'eth1'], // a private address
    ['00:40:8c:e1:55:0a', '10.10.3.10', null, 'eth1.30'], // Axis camera
    ['00:1b:54:2d:90:c4', '10.10.4.15', 'SEP001B542D90C4', 'eth1.40'], // Cisco IP phone
  ],
  'Branch Munich': [
    ['00:1b:a9:77:03:5e', '192.168.20.30', 'muc-printer', 'br-lan'], // Brother
    ['00:0e:58:a2:6f:19', '192.168.20.44', null, 'br-lan'], // Sonos
    ['2c:cf:67:08:b1:d4', '192.168.20.60', 'muc-sensor-pi', 'br-lan'], // Raspberry Pi
    ['3c:2e:ff:91:0c:7a', '192.168.20.71', 'Lukas-MacBook-Air', 'br-lan'], // Apple
  ],
  'Store Cologne': [
    ['00:0b:4f:5c:12:e0', '192.168.50.11', 'cgn-pos-1', 'eth1'], // Verifone POS terminal
    ['00:03:81:2a:c4:9b', '192.168.50.12', 'cgn-pos-2', 'eth1'], // Ingenico POS terminal
    ['00:07:4d:b0:3e:51', '192.168.50.20', null, 'eth1'], // Zebra scanner
    ['24:65:11:f3:8a:06', '192.168.50.2', null, 'eth1'], // AVM FRITZ!Box
  ],
};

/** A site gateway's LAN report of its demo hosts. */
const lanOf = (name: string): GwLan | undefined =>
  DEMO_LANS[name]
    ? {
        neighbours: DEMO_LANS[name].map(([mac, ip, hostname, iface]) => ({
          mac,
          ip,
          hostname,
          source: hostname ? 'dhcp' : 'arp',
          interface: iface,
        })),
      }
    : undefined;

/** A WireGuard public key as a gateway makes it (the private key is thrown away: no gateway runs here). */
function wireguardPublicKey(): string {
  const der = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32).toString('base64');
}

/**
 * A customer's demo gateways, through the gateway services the API and the gateway protocol use: cloud nodes in
 * several regions, a virtual node and three site gateways (one of each kind). The enrolled ones enrolled with
 * their own key and report once, so the screens show their version and load, and the site gateways the hosts on
 * their LANs; with no gateway running they go offline after three missed heartbeats (and their hosts inactive
 * after ten minutes), as a real one would (`npm run gateway` brings one online).
 */
export async function seedGateways(database: Database, ctx: Ctx): Promise<void> {
  const policies = createPolicyCache(database);
  const deps: gateways.GatewayDeps = {
    database,
    policies,
    bundles: gateways.createBundleCache(),
    // The seed never waits for a bundle, so it listens to nothing.
    changes: { subscribe: () => () => {}, close: async () => {} },
  };
  try {
    for (const [index, [name, kind, region, hostname]] of DEMO_GATEWAYS.entries()) {
      const { enrolmentToken } = await gateways.createGateway(deps, ctx, { name, kind, region });
      if (!hostname) continue;
      const { row } = await gateways.enrol(
        deps,
        {
          token: enrolmentToken.token,
          publicKey: wireguardPublicKey(),
          hostname,
          version: '1.0.0',
          // Documentation addresses (RFC 5737): where devices would reach it.
          endpoint: `203.0.113.${10 + index}:51820`,
        },
        null,
      );
      const metrics = {
        cpuPercent: 8 + index * 3,
        memoryPercent: 30 + index * 4,
        throughputBps: 1_000_000 * (index + 1),
        uptimeSeconds: 86_400 * (index + 1),
        activePeers: 2 + index,
        connectedUsers: 3 + index * 2,
      };
      const { currentVersion } = await gateways.heartbeat(
        deps,
        { tenantId: ctx.tenant.id, gatewayId: row.id, ip: null },
        {
          version: '1.0.0',
          enforcedVersion: null,
          metrics,
          peers: [],
        },
      );
      // The enrolled ones took the current bundle; the site gateways report the hosts on their LANs.
      const lan = lanOf(name);
      await gateways.heartbeat(
        deps,
        { tenantId: ctx.tenant.id, gatewayId: row.id, ip: null },
        GwHeartbeat.parse({
          version: '1.0.0',
          enforcedVersion: currentVersion,
          metrics,
          peers: [],
          ...(lan ? { lan } : {}),
        }),
      );
    }
  } finally {
    policies.close();
  }
}
