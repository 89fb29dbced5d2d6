import type { Gateway, GatewayStatus } from '@palisade/contracts';
import { isSiteKind } from './gateway-facts';

/** Sizes of the map's boxes, in flow units. */
export const MAP_SIZES = {
  node: { width: 240, height: 96 },
  cloud: { width: 220, height: 64 },
  gap: 28,
  /** Space inside a region box around its nodes, and above them for the region's name. */
  regionPadding: 16,
  regionHeader: 36,
  /** At most this many nodes side by side in a region box, and site gateways in one row. */
  regionColumns: 4,
  siteColumns: 8,
  rowGap: 110,
} as const;

/** The id of the root node. */
export const CLOUD_ID = 'cloud';
const regionNodeId = (region: string) => `region:${region}`;

/** The statuses a drawn gateway can have (retired ones are left off the map). */
export type MapStatus = Exclude<GatewayStatus, 'retired'>;

/** A box of the map: the cloud root, a region around its cybernodes, or a gateway. */
export type MapNode =
  | { id: typeof CLOUD_ID; type: 'cloud'; x: number; y: number; width: number; height: number }
  | { id: string; type: 'region'; region: string; x: number; y: number; width: number; height: number }
  | {
      id: string;
      type: 'gateway';
      gateway: Gateway;
      /** The region box it sits in (its position is then relative to that box). */
      parentId?: string;
      x: number;
      y: number;
      width: number;
      height: number;
    };

/** A link from the cloud to a cybernode, or from a cybernode (or the cloud) to a site gateway. */
export interface MapEdge {
  id: string;
  source: string;
  target: string;
  /** The status of the gateway it leads to: the link is up when that gateway is online. */
  status: MapStatus;
}

/** One gateway as the accessible list shows it: what it is linked to. */
export interface MapRow {
  gateway: Gateway;
  /** The cybernode a site gateway is linked to; null for the cloud. */
  linkedTo: Gateway | null;
}

/** The map worked out from the gateways: boxes in order (a region before its nodes), links, and the list rows. */
export interface NetworkMapLayout {
  nodes: MapNode[];
  edges: MapEdge[];
  rows: MapRow[];
  /** Retired gateways, left off the map. */
  retired: number;
}

const byName = (a: Gateway, b: Gateway) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
const STATUS_RANK: Record<GatewayStatus, number> = { online: 0, offline: 1, pending: 2, retired: 3 };

/** The cybernode a site gateway of `region` is linked to: a cloud cybernode before a virtual one, online first. */
function hubOf(cores: Gateway[], region: string): Gateway | null {
  const candidates = cores
    .filter((core) => core.region === region)
    .sort(
      (a, b) =>
        Number(a.kind !== 'cybernode') - Number(b.kind !== 'cybernode') ||
        STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
        byName(a, b),
    );
  return candidates[0] ?? null;
}

/**
 * Lays the tenant's gateways out as a tree from top to bottom: the Palisade cloud at the top; below it one box
 * per region holding its cybernodes and virtual cybernodes, each linked to the cloud; below those the site
 * gateways (CGW, CGWR, LGW), each linked to a cybernode of its region when there is one, else to the cloud,
 * ordered so that their links cross as little as possible. Retired gateways are left off. Deterministic: the
 * same gateways give the same map, so a live refresh does not move anything that did not change.
 */
export function layoutNetworkMap(gateways: Gateway[]): NetworkMapLayout {
  const { node, cloud, gap, regionPadding, regionHeader, regionColumns, siteColumns, rowGap } = MAP_SIZES;
  const drawn = gateways.filter((gateway) => gateway.status !== 'retired');
  const cores = drawn.filter((gateway) => !isSiteKind(gateway.kind)).sort(byName);
  const sites = drawn.filter((gateway) => isSiteKind(gateway.kind)).sort(byName);

  // Region boxes, side by side.
  const regions = [...new Set(cores.map((core) => core.region))].sort((a, b) => a.localeCompare(b));
  const regionTop = cloud.height + rowGap;
  const regionNodes: MapNode[] = [];
  const coreNodes: MapNode[] = [];
  const centreX = new Map<string, number>();
  let x = 0;
  let regionBottom = regionTop;
  for (const region of regions) {
    const members = cores
      .filter((core) => core.region === region)
      .sort((a, b) => Number(a.kind !== 'cybernode') - Number(b.kind !== 'cybernode') || byName(a, b));
    const columns = Math.min(members.length, regionColumns);
    const rows = Math.ceil(members.length / regionColumns);
    const width = regionPadding * 2 + columns * node.width + (columns - 1) * gap;
    const height = regionHeader + regionPadding + rows * node.height + (rows - 1) * gap;
    const id = regionNodeId(region);
    regionNodes.push({ id, type: 'region', region, x, y: regionTop, width, height });
    members.forEach((gateway, index) => {
      const relX = regionPadding + (index % regionColumns) * (node.width + gap);
      const relY = regionHeader + Math.floor(index / regionColumns) * (node.height + gap);
      coreNodes.push({ id: gateway.id, type: 'gateway', gateway, parentId: id, x: relX, y: relY, ...node });
      centreX.set(gateway.id, x + relX + node.width / 2);
    });
    x += width + gap * 2;
    regionBottom = Math.max(regionBottom, regionTop + height);
  }
  const regionsWidth = Math.max(0, x - gap * 2);
  // Site gateways linked to the cloud sort under its middle.
  centreX.set(CLOUD_ID, regionsWidth / 2);

  // Site gateways in rows below, ordered by the x of what they are linked to.
  const hubs = new Map(sites.map((site) => [site.id, hubOf(cores, site.region)]));
  const sitesOrdered = [...sites].sort(
    (a, b) =>
      (centreX.get(hubs.get(a.id)?.id ?? CLOUD_ID) ?? 0) -
        (centreX.get(hubs.get(b.id)?.id ?? CLOUD_ID) ?? 0) || byName(a, b),
  );
  const siteTop = (regions.length > 0 ? regionBottom : cloud.height) + rowGap;
  const siteColumnsUsed = Math.min(sitesOrdered.length, siteColumns);
  const sitesWidth = siteColumnsUsed * node.width + Math.max(0, siteColumnsUsed - 1) * gap;
  const width = Math.max(regionsWidth, sitesWidth, cloud.width);
  // Each row is centred under the whole map.
  const regionShift = (width - regionsWidth) / 2;
  for (const regionNode of regionNodes) regionNode.x += regionShift;
  const siteNodes: MapNode[] = sitesOrdered.map((gateway, index) => {
    const row = Math.floor(index / siteColumns);
    const inRow = Math.min(siteColumns, sitesOrdered.length - row * siteColumns);
    const rowWidth = inRow * node.width + (inRow - 1) * gap;
    return {
      id: gateway.id,
      type: 'gateway',
      gateway,
      x: (width - rowWidth) / 2 + (index % siteColumns) * (node.width + gap),
      y: siteTop + row * (node.height + rowGap / 2),
      ...node,
    };
  });
  const cloudNode: MapNode = {
    id: CLOUD_ID,
    type: 'cloud',
    x: (width - cloud.width) / 2,
    y: 0,
    ...cloud,
  };

  const edges: MapEdge[] = [
    ...cores.map((core) => ({
      id: `link:${core.id}`,
      source: CLOUD_ID,
      target: core.id,
      status: core.status as MapStatus,
    })),
    ...sitesOrdered.map((site) => ({
      id: `link:${site.id}`,
      source: hubs.get(site.id)?.id ?? CLOUD_ID,
      target: site.id,
      status: site.status as MapStatus,
    })),
  ];
  const rows: MapRow[] = [
    ...coreNodes.map((mapNode) => ({ gateway: (mapNode as { gateway: Gateway }).gateway, linkedTo: null })),
    ...sitesOrdered.map((site) => ({ gateway: site, linkedTo: hubs.get(site.id) ?? null })),
  ];
  return {
    nodes: [cloudNode, ...regionNodes, ...coreNodes, ...siteNodes],
    edges,
    rows,
    retired: gateways.length - drawn.length,
  };
}
