import {
  LocalControls,
  MeshSettingsInput,
  PrivateServiceInput,
  SiteConfigInput,
  ZtnaRuleInput,
} from '@palisade/contracts';
import type { Database } from '../db/client';
import type { Ctx } from '../lib/context';
import * as gateways from '../modules/gateways/gateways.service';
import { putLocalControls } from '../modules/gateways/local-controls.service';
import * as mesh from '../modules/gateways/mesh.service';
import * as access from '../modules/gateways/private-access.service';
import * as sites from '../modules/gateways/site-config.service';
import { importSiteMinutes } from '../modules/gateways/site-performance.service';
import { listPolicies } from '../modules/policies/policies.service';
import { createPolicyCache } from '../modules/policy-core/policy-core.service';
import { listFeeds } from '../modules/policy-objects/feeds.service';
import * as groups from '../modules/users/users.service';

/**
 * The demo's two configured site gateways, through the services the screens call: HQ Berlin (offices, servers,
 * a guest VLAN, a static WAN, the intranet forwarded from the internet) and Branch Munich (one office LAN with
 * DHCP, a camera VLAN); the intranet published to Engineering as a private service, a ZTNA rule letting Support
 * reach the servers' SSH; Store Cologne's local controls for its shop network; a week of each site gateway's
 * performance; and the mesh of HQ Berlin and Branch Munich, with the Frankfurt PoP as its hub for Engineering.
 */
const CONFIGS = {
  'HQ Berlin': {
    lans: [
      {
        id: 1,
        name: 'Office',
        address: '192.168.10.1',
        prefix: 24,
        lanDhcp: true,
        dhcpStart: '192.168.10.100',
        dhcpEnd: '192.168.10.199',
      },
      { id: 2, name: 'Servers', address: '10.10.0.1', prefix: 16, lanDhcp: false },
    ],
    vlans: [{ vlanId: 20, name: 'Guests', lanId: 1, address: '192.168.20.1', prefix: 24 }],
    wan: {
      mode: 'static',
      ips: [{ address: '203.0.113.15', prefix: 24 }],
      gateway: '203.0.113.1',
      dns: ['9.9.9.9', '149.112.112.112'],
    },
    portForwards: [
      { name: 'Intranet', protocol: 'tcp', ports: '443', ip: '192.168.10.20', source: 'any' },
      {
        name: 'Partner SFTP',
        protocol: 'tcp',
        ports: '2222',
        ip: '10.10.0.25',
        toPort: 22,
        source: '198.51.100.0/24',
      },
    ],
    trafficFlows: [
      { name: 'Guests straight out', lanId: 1, via: 'wan', destination: 'any' },
      { name: 'Servers to the cloud', lanId: 2, via: 'tunnel', destination: '10.0.0.0/8' },
    ],
  },
  'Branch Munich': {
    lans: [
      {
        id: 1,
        name: 'Office',
        address: '192.168.30.1',
        prefix: 24,
        lanDhcp: true,
        dhcpStart: '192.168.30.50',
        dhcpEnd: '192.168.30.150',
      },
    ],
    vlans: [{ vlanId: 30, name: 'Cameras', lanId: 1, address: '192.168.31.1', prefix: 24 }],
    wan: { mode: 'dhcp', ips: [], dns: [] },
    portForwards: [],
    trafficFlows: [{ name: 'Everything through HQ', lanId: 1, via: 'tunnel', destination: 'any' }],
  },
} as const;

const MINUTE_MS = 60_000;
const WEEK_MINUTES = 7 * 24 * 60;

/**
 * A week of a site's performance, per minute, up to the minute before now: office hours busier and a little
 * slower, a lost heartbeat now and then, and for the second site an outage of 40 minutes two days ago.
 * Deterministic (no randomness), so the demo looks the same every time.
 */
function weekOf(site: number) {
  const now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const minutes = [];
  for (let i = WEEK_MINUTES; i >= 1; i--) {
    const at = now - i * MINUTE_MS;
    const hour = new Date(at).getUTCHours();
    const isOutage = site === 1 && i >= 2 * 1440 && i < 2 * 1440 + 40;
    if (isOutage) continue;
    const busy = hour >= 7 && hour <= 17 ? 1 : 0.25;
    const wobble = Math.sin(i / 37 + site) * 0.5 + 0.5;
    minutes.push({
      minute: new Date(at),
      heartbeats: (i * 7 + site * 13) % 97 === 0 ? 10 : i % 41 === 0 ? 11 : 12,
      latencyMs: Math.round((14 + site * 9 + busy * 12 + wobble * 6) * 10) / 10,
      throughputBps: Math.round((2 + site) * 1_000_000 * busy * (0.7 + wobble * 0.6)),
      activePeers: Math.round((3 + site * 2) * busy + wobble * 2),
    });
  }
  return minutes;
}

export async function seedSites(database: Database, ctx: Ctx): Promise<void> {
  const policies = createPolicyCache(database);
  const deps: gateways.GatewayDeps = {
    database,
    policies,
    bundles: gateways.createBundleCache(),
    changes: { subscribe: () => () => {}, close: async () => {} },
  };
  try {
    const page = await gateways.listGateways(deps, ctx, {
      kind: 'site',
      limit: 50,
      offset: 0,
      order: 'asc',
      sort: 'name',
    });
    const idOf = (name: string) => page.items.find((gateway) => gateway.name === name)?.id;
    for (const [name, config] of Object.entries(CONFIGS)) {
      const id = idOf(name);
      if (id) await sites.putSiteConfig(deps, ctx, id, SiteConfigInput.parse(config));
    }
    for (const [index, site] of page.items.entries()) {
      await importSiteMinutes(database, ctx.tenant.id, site.id, weekOf(index));
    }
    const hq = idOf('HQ Berlin');
    if (!hq) return;
    const groupIds = new Map(
      (await database.tenantTx(ctx.tenant.id, (tx) => groups.groupOptions(tx, ctx.tenant.id))).map((g) => [
        g.name,
        g.id,
      ]),
    );
    await access.savePrivateService(
      database,
      ctx,
      null,
      PrivateServiceInput.parse({
        name: 'Intranet',
        gatewayId: hq,
        address: '192.168.10.20',
        ports: '443',
        groupIds: [groupIds.get('Engineering')].filter(Boolean),
      }),
    );
    // Store Cologne enforces locally what a shop needs: the gambling policy, no games or streaming on the shop
    // network, no connections to North Korea, and the tenant's threat-intel feeds.
    const store = idOf('Store Cologne');
    if (store) {
      const lists = await listPolicies(database, ctx);
      const gambling = lists.user.find((policy) => policy.name === 'Block gambling');
      const tenantFeeds = await listFeeds(database, ctx);
      await putLocalControls(
        database,
        ctx,
        store,
        LocalControls.parse({
          policyIds: gambling ? [gambling.id] : [],
          categories: ['games', 'streaming-media'],
          countries: ['KP'],
          feeds: tenantFeeds.filter((feed) => feed.enabled).map((feed) => feed.id),
        }),
      );
    }
    await access.saveZtnaRule(
      database,
      ctx,
      null,
      ZtnaRuleInput.parse({
        name: 'Servers SSH for support',
        gatewayId: hq,
        destination: '10.10.0.0/24',
        protocol: 'tcp',
        ports: '22',
        groupIds: [groupIds.get('Support')].filter(Boolean),
      }),
    );
    // The mesh: HQ Berlin and Branch Munich reach each other's LANs, Engineering reaches both through the
    // Frankfurt PoP.
    const cybernodes = await gateways.listGateways(deps, ctx, {
      kind: 'cybernode',
      limit: 50,
      offset: 0,
      order: 'asc',
      sort: 'name',
    });
    const frankfurt = cybernodes.items.find((gateway) => gateway.name === 'Frankfurt PoP');
    const munich = idOf('Branch Munich');
    if (frankfurt && munich) {
      await mesh.saveMesh(
        deps,
        ctx,
        MeshSettingsInput.parse({
          enabled: true,
          hubId: frankfurt.id,
          siteIds: [hq, munich],
          groupIds: [groupIds.get('Engineering')].filter(Boolean),
        }),
      );
    }
  } finally {
    policies.close();
  }
}
