import { describe, expect, it } from 'vitest';
import { BERLIN_SITE, FRANKFURT, makeGateway, NEW_NODE, OWN_NODE } from '../testing/gateway-fixtures';
import { CLOUD_ID, layoutNetworkMap, MAP_SIZES } from './network-map-layout';

const PARIS = makeGateway({ id: '66666666-6666-4666-8666-666666666666', name: 'Paris 1', region: 'eu-west' });
/** A site gateway that names a cloud region as its site: it links to that region's cybernode. */
const MUNICH_SITE = makeGateway({
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Munich branch',
  kind: 'lgw',
  region: 'eu-central',
  status: 'pending',
});
const RETIRED = makeGateway({
  id: '88888888-8888-4888-8888-888888888888',
  name: 'Old node',
  status: 'retired',
});

describe('layoutNetworkMap', () => {
  it('puts the cloud on top, a box per region around its cybernodes, and the site gateways below', () => {
    const layout = layoutNetworkMap([
      FRANKFURT,
      BERLIN_SITE,
      OWN_NODE,
      NEW_NODE,
      PARIS,
      MUNICH_SITE,
      RETIRED,
    ]);
    expect(layout.nodes.map((node) => node.id)).toEqual([
      CLOUD_ID,
      'region:eu-central',
      'region:eu-west',
      'region:us-east',
      FRANKFURT.id,
      NEW_NODE.id,
      PARIS.id,
      OWN_NODE.id,
      MUNICH_SITE.id,
      BERLIN_SITE.id,
    ]);
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    expect(byId.get(FRANKFURT.id)).toMatchObject({ parentId: 'region:eu-central' });
    expect(byId.get(OWN_NODE.id)).toMatchObject({ parentId: 'region:us-east' });
    expect(byId.get(BERLIN_SITE.id)).not.toHaveProperty('parentId');
    // Rows from top to bottom.
    const regionY = byId.get('region:eu-central')?.y ?? 0;
    expect(regionY).toBeGreaterThan(byId.get(CLOUD_ID)?.y ?? 0);
    expect(byId.get(BERLIN_SITE.id)?.y).toBeGreaterThan(regionY + MAP_SIZES.node.height);
    // Two cybernodes side by side in their region's box.
    expect(byId.get('region:eu-central')?.width).toBe(
      2 * MAP_SIZES.regionPadding + 2 * MAP_SIZES.node.width + MAP_SIZES.gap,
    );
    expect(layout.retired).toBe(1);
  });

  it('links cybernodes to the cloud and site gateways to a cybernode of their region, else to the cloud', () => {
    const layout = layoutNetworkMap([FRANKFURT, BERLIN_SITE, NEW_NODE, OWN_NODE, MUNICH_SITE]);
    expect(layout.edges).toEqual([
      { id: `link:${FRANKFURT.id}`, source: CLOUD_ID, target: FRANKFURT.id, status: 'online' },
      { id: `link:${NEW_NODE.id}`, source: CLOUD_ID, target: NEW_NODE.id, status: 'pending' },
      { id: `link:${OWN_NODE.id}`, source: CLOUD_ID, target: OWN_NODE.id, status: 'online' },
      // Munich names eu-central: its online cybernode, not the pending one; it sorts under it, left of the middle.
      { id: `link:${MUNICH_SITE.id}`, source: FRANKFURT.id, target: MUNICH_SITE.id, status: 'pending' },
      // Berlin names no cloud region: the cloud, in the middle.
      { id: `link:${BERLIN_SITE.id}`, source: CLOUD_ID, target: BERLIN_SITE.id, status: 'offline' },
    ]);
    expect(layout.rows.map((row) => [row.gateway.name, row.linkedTo?.name ?? null])).toEqual([
      ['Frankfurt 1', null],
      ['New node', null],
      ['Own node', null],
      ['Munich branch', 'Frankfurt 1'],
      ['Berlin office', null],
    ]);
  });

  it('is empty without gateways, and the same for the same gateways in any order', () => {
    expect(layoutNetworkMap([]).nodes.map((node) => node.id)).toEqual([CLOUD_ID]);
    expect(layoutNetworkMap([MUNICH_SITE, PARIS, FRANKFURT])).toEqual(
      layoutNetworkMap([FRANKFURT, PARIS, MUNICH_SITE]),
    );
  });
});
