import type { SiteConfigView, SiteLan } from '@palisade/contracts';
import { keysetPage } from '../../../testing/fake-api';
import { makeSiteGateway } from '../../../testing/site-gateways';

export const BERLIN_ID = '55555555-5555-4555-8555-555555555555';
export const MUNICH_ID = '66666666-6666-4666-8666-666666666666';
export const HAMBURG_ID = '77777777-7777-4777-8777-777777777777';

/** The Berlin office's configuration: one LAN with DHCP, a VLAN, a static WAN, a forward and a flow. */
export const BERLIN_VIEW: SiteConfigView = {
  lans: [
    {
      id: 1,
      name: 'Office',
      address: '192.168.1.1',
      prefix: 24,
      lanDhcp: true,
      dhcpStart: '192.168.1.100',
      dhcpEnd: '192.168.1.200',
    },
  ],
  vlans: [{ vlanId: 10, name: 'Guests', lanId: 1, address: '192.168.10.1', prefix: 24 }],
  wan: {
    mode: 'static',
    ips: [{ address: '203.0.113.10', prefix: 29 }],
    gateway: '203.0.113.9',
    dns: ['9.9.9.9'],
  },
  portForwards: [{ name: 'Web', protocol: 'tcp', ports: '443', ip: '192.168.1.10', source: 'any' }],
  trafficFlows: [{ name: 'To HQ', lanId: 1, via: 'tunnel', destination: '10.20.0.0/16' }],
  gatewayId: BERLIN_ID,
  kind: 'cgw',
  name: 'Berlin office',
  status: 'online',
  updatedAt: '2026-03-01T10:00:00.000Z',
  currentVersion: 'b2c3d4e5f6071829.0badf00d',
  appliedVersion: 'a1b2c3d4e5f60718.0badf00d',
  isApplied: false,
};

/** `count` LANs on the ports 1…count, each its own /24 without DHCP. */
export function lans(count: number): SiteLan[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `LAN ${i + 1}`,
    address: `192.168.${i + 1}.1`,
    prefix: 24,
    lanDhcp: false,
  }));
}

export const BERLIN_GATEWAY = makeSiteGateway({ id: BERLIN_ID, name: 'Berlin office', region: 'Berlin' });
export const MUNICH_GATEWAY = makeSiteGateway({ id: MUNICH_ID, name: 'Munich shop', region: 'Munich' });
export const HAMBURG_GATEWAY = makeSiteGateway({
  id: HAMBURG_ID,
  name: 'Hamburg depot',
  region: 'Hamburg',
  status: 'retired',
});

/** The tenant's site gateways as the list endpoint answers them. */
export const SITE_GATEWAYS_PAGE = keysetPage([BERLIN_GATEWAY, HAMBURG_GATEWAY, MUNICH_GATEWAY]);
