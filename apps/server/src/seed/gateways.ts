import { generateKeyPairSync } from 'node:crypto';
import type { GatewayKind } from '@palisade/contracts';
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
];

/** A WireGuard public key as a gateway makes it (the private key is thrown away: no gateway runs here). */
function wireguardPublicKey(): string {
  const der = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32).toString('base64');
}

/**
 * A customer's demo gateways, through the gateway services the API and the gateway protocol use: cloud nodes in
 * several regions, a virtual node and two site gateways. The enrolled ones enrolled with their own key and
 * report once, so the screens show their version and load; with no gateway running they go offline after three
 * missed heartbeats, as a real one would (`npm run gateway` brings one online).
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
      // The enrolled ones took the current bundle.
      await gateways.heartbeat(
        deps,
        { tenantId: ctx.tenant.id, gatewayId: row.id, ip: null },
        {
          version: '1.0.0',
          enforcedVersion: currentVersion,
          metrics,
          peers: [],
        },
      );
    }
  } finally {
    policies.close();
  }
}
