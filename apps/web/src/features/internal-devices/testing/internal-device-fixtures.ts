import type { InternalDevice } from '@palisade/contracts';

export const MINUTE = 60_000;
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export const BERLIN_ID = '1a1a1a1a-1a1a-4a1a-8a1a-1a1a1a1a1a1a';
export const COLOGNE_ID = '2b2b2b2b-2b2b-4b2b-8b2b-2b2b2b2b2b2b';

/** A host of a site gateway; override what the test is about. */
export function makeInternalDevice(overrides: Partial<InternalDevice> & { id: string }): InternalDevice {
  return {
    gatewayId: BERLIN_ID,
    gatewayName: 'HQ Berlin',
    mac: '00:11:32:9e:41:d2',
    ip: '10.10.1.5',
    hostname: 'hq-nas',
    vendor: 'Synology Incorporated',
    source: 'dhcp',
    interface: 'eth1',
    firstSeenAt: ago(3 * 24 * 60 * MINUTE),
    lastSeenAt: ago(2 * MINUTE),
    isActive: true,
    ...overrides,
  };
}

export const NAS = makeInternalDevice({ id: 'd1d1d1d1-d1d1-4d1d-8d1d-d1d1d1d1d1d1' });
export const PRINTER = makeInternalDevice({
  id: 'd2d2d2d2-d2d2-4d2d-8d2d-d2d2d2d2d2d2',
  mac: '50:81:40:3a:1c:07',
  ip: '10.10.1.20',
  hostname: 'hq-printer-2og',
  vendor: 'HP Inc.',
  lastSeenAt: ago(45 * MINUTE),
  isActive: false,
});
/** An ARP entry: no name; a private address: no vendor. */
export const POS = makeInternalDevice({
  id: 'd3d3d3d3-d3d3-4d3d-8d3d-d3d3d3d3d3d3',
  gatewayId: COLOGNE_ID,
  gatewayName: 'Store Cologne',
  mac: 'da:a1:19:5f:22:80',
  ip: '192.168.50.11',
  hostname: null,
  vendor: null,
  source: 'arp',
  interface: null,
});
