import {
  DEVICE_TUNNEL_NETWORK,
  type Gateway,
  gatewayEndpoints,
  type Mesh,
  type MeshIssue,
  type MeshNode,
  type MeshPeer,
  type MeshSettingsInput,
  meshEndpoints,
} from '@palisade/contracts';
import type { FakeApi } from '../../../testing/fake-api';
import { keysetPage } from '../../../testing/fake-api';
import { makeSiteGateway } from '../../../testing/site-gateways';
import { fakePrivateAccessApi } from './fake-private-access';
import {
  ANN,
  ANN_ID,
  BERLIN,
  BERLIN_ID,
  BOB,
  ENGINEERING_ID,
  GROUP_OPTIONS,
  MUNICH,
  MUNICH_ID,
  OLD_SITE,
} from './fixtures';

export const FRANKFURT_ID = '88888888-8888-4888-8888-888888888888';
export const EDGE_ID = '99999999-9999-4999-8999-999999999999';
export const RETIRED_NODE_ID = 'ffffffff-ffff-4fff-8fff-ffffffffffff';

/** A cloud cybernode. */
export const FRANKFURT = makeSiteGateway({
  id: FRANKFURT_ID,
  name: 'Frankfurt',
  kind: 'cybernode',
  region: 'eu-central',
});
/** The tenant's own virtual cybernode. */
export const EDGE = makeSiteGateway({ id: EDGE_ID, name: 'Acme edge', kind: 'virtual', region: 'eu-west' });
/** A retired cybernode: never offered as the hub. */
export const RETIRED_NODE = makeSiteGateway({
  id: RETIRED_NODE_ID,
  name: 'Old node',
  kind: 'cybernode',
  status: 'retired',
});

export const FRANKFURT_KEY = 's5Ks3P0z8CAJ22yFjaihC+CyEID9ymX8xW3aeYy4XCo=';
export const BERLIN_KEY = '+zipP9ieGl/HhSpdcQnjIdI6choYmSkic6xaIdxNs3g=';

/** What the mesh knows of a gateway: its key, tunnel address, endpoint and networks. */
interface NodeFixture {
  gateway: Gateway;
  publicKey: string;
  address: string;
  endpoint: string | null;
  networks: string[];
}

const NODES: Record<string, NodeFixture> = {
  [FRANKFURT_ID]: {
    gateway: FRANKFURT,
    publicKey: FRANKFURT_KEY,
    address: '100.100.0.1/24',
    endpoint: 'fra.cybernodes.example:51820',
    networks: [],
  },
  [EDGE_ID]: {
    gateway: EDGE,
    publicKey: 'ocsQD1fpccrPJp58JuRjCiWo6dS9014y3xqAtmuJYlQ=',
    address: '100.100.2.1/24',
    endpoint: '198.51.100.7:51820',
    networks: [],
  },
  [BERLIN_ID]: {
    gateway: BERLIN,
    publicKey: BERLIN_KEY,
    address: '100.100.3.1/24',
    endpoint: '203.0.113.10:51820',
    networks: ['192.168.1.0/24', '192.168.20.0/24'],
  },
  [MUNICH_ID]: {
    gateway: MUNICH,
    publicKey: '6drz5CNeaqP6ozZDlMdszG1mCRL8D51SbYAolSHTy7o=',
    address: '100.100.4.1/24',
    endpoint: null,
    networks: ['10.20.0.0/24'],
  },
};

const host = (cidr: string) => `${cidr.split('/')[0]}/32`;
const named = (gateway: Gateway) => ({ id: gateway.id, name: gateway.name });
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * The mesh the server would answer for these settings (a simplified plan): sites reach each other directly when
 * one of the two has an endpoint, else through the hub; with a hub the devices reach every site through it.
 */
export function meshOf(
  settings: MeshSettingsInput,
  {
    issues = [],
    updatedAt = '2026-03-01T10:00:00.000Z',
  }: { issues?: MeshIssue[]; updatedAt?: string | null } = {},
): Mesh {
  const hub = settings.hubId ? NODES[settings.hubId] : undefined;
  const sites = (settings.siteIds ?? [])
    .map((id) => NODES[id])
    .filter((node) => node !== undefined)
    .sort((a, b) => byName(a.gateway, b.gateway));
  const userIds = settings.userIds ?? [];
  const groupIds = settings.groupIds ?? [];
  const base = {
    enabled: settings.enabled,
    hub: hub ? named(hub.gateway) : null,
    sites: sites.map((site) => named(site.gateway)),
    users: [ANN, BOB]
      .filter((user) => userIds.includes(user.id))
      .map((u) => ({ id: u.id, name: u.username })),
    groups: GROUP_OPTIONS.filter((group) => groupIds.includes(group.id)),
    updatedAt,
  };
  if (!settings.enabled) {
    return { ...base, nodes: [], members: { users: 0, devices: 0, allowedIps: [] }, issues };
  }
  const reach = (node: NodeFixture) => [host(node.address), ...node.networks];
  const peerOf = (node: NodeFixture, allowedIps: string[]): MeshPeer => ({
    gatewayId: node.gateway.id,
    name: node.gateway.name,
    publicKey: node.publicKey,
    endpoint: node.endpoint,
    allowedIps,
  });
  const nodeOf = (
    node: NodeFixture,
    peers: MeshPeer[],
    takesDevices: boolean,
    networks: string[],
  ): MeshNode => ({
    id: node.gateway.id,
    name: node.gateway.name,
    kind: node.gateway.kind,
    status: node.gateway.status,
    address: node.address,
    endpoint: node.endpoint,
    networks,
    peers,
    takesDevices,
  });
  const siteNodes = sites.map((site) => {
    const others = sites.filter((other) => other !== site);
    const direct = others.filter((other) => site.endpoint || other.endpoint);
    const throughHub = others.filter((other) => !(site.endpoint || other.endpoint)).flatMap(reach);
    const hubPeer = hub ? [peerOf(hub, [host(hub.address), DEVICE_TUNNEL_NETWORK, ...throughHub])] : [];
    return nodeOf(
      site,
      [...hubPeer, ...direct.map((other) => peerOf(other, reach(other)))],
      !hub,
      site.networks,
    );
  });
  const hubNode = hub
    ? [
        nodeOf(
          hub,
          sites.map((site) => peerOf(site, reach(site))),
          true,
          [],
        ),
      ]
    : [];
  const memberUsers = userIds.length + groupIds.length;
  return {
    ...base,
    nodes: [...hubNode, ...siteNodes],
    members: {
      users: memberUsers,
      devices: memberUsers * 2,
      allowedIps: hub
        ? [
            {
              gatewayId: hub.gateway.id,
              name: hub.gateway.name,
              allowedIps: [host(hub.address), ...sites.flatMap(reach)],
            },
          ]
        : sites.map((site) => ({
            gatewayId: site.gateway.id,
            name: site.gateway.name,
            allowedIps: reach(site),
          })),
    },
    issues,
  };
}

/** The mesh of most tests: on, through Frankfurt, joining Berlin and Munich, for Ann and Engineering. */
export const MESH_ON = meshOf({
  enabled: true,
  hubId: FRANKFURT_ID,
  siteIds: [BERLIN_ID, MUNICH_ID],
  userIds: [ANN_ID],
  groupIds: [ENGINEERING_ID],
});

/** A tenant that never set a mesh up. */
export const MESH_NONE = meshOf(
  { enabled: false, hubId: null, siteIds: [], userIds: [], groupIds: [] },
  {
    updatedAt: null,
  },
);

/**
 * The fake API of the mesh screen: the look-ups of the private-access screens, the gateways listed by kind (the
 * hub picker asks for cybernodes and virtual ones), and the mesh kept as state: a save answers (and from then on
 * serves) the mesh of the saved settings.
 */
export function fakeMeshApi({
  mesh = MESH_ON,
  issues = [],
}: {
  mesh?: Mesh;
  issues?: MeshIssue[];
} = {}): FakeApi {
  let state: Mesh = { ...mesh, issues: [...mesh.issues, ...issues] };
  return fakePrivateAccessApi()
    .on(gatewayEndpoints.listGateways, ({ query }) => {
      if (query.kind === 'cybernode') return keysetPage([FRANKFURT, RETIRED_NODE]);
      if (query.kind === 'virtual') return keysetPage([EDGE]);
      return keysetPage([BERLIN, MUNICH, OLD_SITE]);
    })
    .on(meshEndpoints.getMesh, () => state)
    .on(meshEndpoints.putMesh, ({ body }) => {
      state = meshOf(body, { updatedAt: '2026-03-02T10:00:00.000Z' });
      return state;
    });
}
