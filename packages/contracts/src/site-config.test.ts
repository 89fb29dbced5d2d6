import { describe, expect, it } from 'vitest';
import {
  portForwardConflicts,
  type SiteConfig,
  SiteConfigForm,
  SiteConfigInput,
  type SitePortForward,
} from './site-config';

const LAN = { id: 1, name: 'Office', address: '192.168.1.1', prefix: 24, lanDhcp: false };
const forward = (
  ip: string,
  source: string,
  ports = '443',
  protocol: 'tcp' | 'udp' = 'tcp',
): SitePortForward => ({
  name: `${ip} ${ports}`,
  protocol,
  ports,
  ip,
  source,
});

describe('SiteConfigInput', () => {
  it('fills the defaults and accepts a minimal configuration', () => {
    expect(SiteConfigInput.parse({ lans: [LAN] })).toEqual({
      lans: [LAN],
      vlans: [],
      wan: { mode: 'dhcp', ips: [], dns: [] },
      portForwards: [],
      trafficFlows: [],
    } satisfies SiteConfig);
  });

  it('reports each problem on its row and field as a validation key', () => {
    const result = SiteConfigInput.safeParse({
      lans: [LAN, { ...LAN, id: 2, address: '192.168.1.2' }],
      vlans: [{ vlanId: 7, name: 'V', lanId: 3, address: '10.0.0.0', prefix: 24 }],
      portForwards: [forward('172.16.0.1', 'any')],
    });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    expect(issues).toEqual([
      { path: 'vlans.0.lanId', message: 'validation.unknownLan' },
      { path: 'vlans.0.address', message: 'validation.hostAddress' },
      { path: 'lans.1.address', message: 'validation.networkOverlap' },
      { path: 'portForwards.0.ip', message: 'validation.forwardOutsideLan' },
    ]);
  });
});

describe('portForwardConflicts', () => {
  it('reports the ip and both sources when sources overlap (any overlaps all), once per later forward', () => {
    expect(
      portForwardConflicts([
        forward('192.168.1.10', '10.0.0.0/8', '22'),
        forward('192.168.1.10', '192.0.2.0/24', '80'),
        forward('192.168.1.10', 'any', '8080'),
      ]),
    ).toEqual([
      {
        path: ['portForwards', 2, 'ip'],
        message: 'validation.ipSourceConflict',
        values: { ip: '192.168.1.10', source: '10.0.0.0/8', otherSource: 'any' },
      },
    ]);
  });

  it('reports an external port of the same protocol forwarded twice, naming the earlier forward', () => {
    expect(
      portForwardConflicts([
        forward('192.168.1.10', 'any', '8000-8080'),
        forward('192.168.1.11', 'any', '53', 'udp'),
        forward('192.168.1.12', 'any', '22,8080'),
        forward('192.168.1.13', 'any', '8000', 'udp'),
      ]),
    ).toEqual([
      {
        path: ['portForwards', 2, 'ports'],
        message: 'validation.portForwarded',
        values: { name: '192.168.1.10 8000-8080' },
      },
    ]);
  });

  it('is part of SiteConfigForm, its values as the issue params', () => {
    const result = SiteConfigForm.safeParse({
      lans: [LAN],
      portForwards: [forward('192.168.1.10', 'any', '22'), forward('192.168.1.10', 'any', '80')],
    });
    expect(result.error?.issues).toMatchObject([
      {
        path: ['portForwards', 1, 'ip'],
        message: 'validation.ipSourceConflict',
        params: { ip: '192.168.1.10', source: 'any', otherSource: 'any' },
      },
    ]);
  });
});
