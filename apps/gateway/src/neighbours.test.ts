import { spawnSync } from 'node:child_process';
import { GwLan, MAX_LAN_NEIGHBOURS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { TOOL_ENV } from './exec';
import { parseDefaultRouteDevices, parseNeighbours } from './neighbours';
import { hasCommand } from './test-kit';

/** `ip -j neigh show` as iproute2 prints it on a gateway with a LAN (eth1, a VLAN) and a WAN (eth0). */
const NEIGH = JSON.stringify([
  { dst: '203.0.113.1', dev: 'eth0', lladdr: '00:00:5e:00:01:01', router: null, state: ['REACHABLE'] },
  { dst: '10.10.1.20', dev: 'eth1', lladdr: '50:81:40:3A:1C:07', state: ['REACHABLE'] },
  { dst: '10.10.1.5', dev: 'eth1', lladdr: '00:11:32:9e:41:d2', state: ['STALE'] },
  { dst: '10.10.1.5', dev: 'eth1', lladdr: '00:11:32:9e:41:d2', state: ['STALE'] },
  { dst: '10.10.1.9', dev: 'eth1', state: ['FAILED'] },
  { dst: '10.10.1.10', dev: 'eth1', lladdr: '00:11:32:00:00:10', state: ['INCOMPLETE'] },
  { dst: '10.10.1.11', dev: 'eth1', lladdr: '00:11:32:00:00:11', state: ['DELAY', 'PROBE'] },
  { dst: '10.10.3.10', dev: 'eth1.30', lladdr: '00:40:8c:e1:55:0a', state: ['PERMANENT'] },
  { dst: '10.10.1.255', dev: 'eth1', lladdr: 'ff:ff:ff:ff:ff:ff', state: ['NOARP'] },
  { dst: '224.0.0.251', dev: 'eth1', lladdr: '01:00:5e:00:00:fb', state: ['NOARP'] },
  { dst: 'fe80::1c2e:ffff:fe91:c7a', dev: 'eth1', lladdr: '1e:2e:ff:91:0c:7a', state: ['STALE'] },
  { dst: '100.100.0.2', dev: 'pal-1a2b3c4d', lladdr: '00:11:32:00:00:99', state: ['REACHABLE'] },
  { dst: '10.10.1.12', dev: 'eth1', lladdr: 'not-a-mac', state: ['REACHABLE'] },
]);

const served = (dev: string) => !['eth0', 'lo', 'pal-1a2b3c4d'].includes(dev);

describe('the neighbour table', () => {
  it('reports the resolved IPv4 hosts of the served interfaces, each once, MACs normalised', () => {
    const neighbours = parseNeighbours(NEIGH, served);
    expect(neighbours).toEqual([
      { mac: '50:81:40:3a:1c:07', ip: '10.10.1.20', source: 'arp', interface: 'eth1' },
      { mac: '00:11:32:9e:41:d2', ip: '10.10.1.5', source: 'arp', interface: 'eth1' },
      { mac: '00:11:32:00:00:11', ip: '10.10.1.11', source: 'arp', interface: 'eth1' },
      { mac: '00:40:8c:e1:55:0a', ip: '10.10.3.10', source: 'arp', interface: 'eth1.30' },
    ]);
    // What it sends is what the server accepts.
    expect(GwLan.safeParse({ neighbours }).success).toBe(true);
  });

  it('takes every interface when not told which it serves, and nothing from output it cannot read', () => {
    expect(parseNeighbours(NEIGH).map((n) => n.interface)).toContain('eth0');
    expect(parseNeighbours('')).toEqual([]);
    expect(parseNeighbours('Object "neigh" is unknown')).toEqual([]);
    expect(parseNeighbours('{"dst":"10.0.0.1"}')).toEqual([]);
    expect(parseNeighbours('[null, 3, {"dst": 7}]')).toEqual([]);
  });

  it('sends at most the contract’s bound', () => {
    const many = Array.from({ length: MAX_LAN_NEIGHBOURS + 10 }, (_, i) => ({
      dst: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      dev: 'eth1',
      lladdr: `00:11:32:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
      state: ['REACHABLE'],
    }));
    expect(parseNeighbours(JSON.stringify(many))).toHaveLength(MAX_LAN_NEIGHBOURS);
  });

  it('finds the WAN interfaces by the default routes', () => {
    expect(
      parseDefaultRouteDevices(
        '[{"dst":"default","gateway":"203.0.113.1","dev":"eth0","flags":[]},{"dst":"default","dev":"wwan0","flags":[]}]',
      ),
    ).toEqual(['eth0', 'wwan0']);
    expect(parseDefaultRouteDevices('')).toEqual([]);
    expect(parseDefaultRouteDevices('nonsense')).toEqual([]);
  });

  it.skipIf(!hasCommand('ip'))('reads this machine’s table with iproute2', () => {
    const out = spawnSync('ip', ['-j', '-4', 'neigh', 'show'], { env: TOOL_ENV, encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(GwLan.safeParse({ neighbours: parseNeighbours(out.stdout) }).success).toBe(true);
  });
});
