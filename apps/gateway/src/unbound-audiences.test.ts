import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpzAudiences, rpzZone } from '@palisade/gateway-config';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Daemon } from './daemon';
import { unboundConfText } from './dataplane';
import { run, which } from './exec';

/**
 * Unbound really binds each audience's zone to its clients (tags): the configuration the gateway writes, served
 * by a real Unbound on 127.0.0.1, asked with `dig -b` from the addresses of two devices (127.0.0.2 and 127.0.0.3
 * stand for tunnel addresses: the loopback network is the machine's own).
 */
const tools = ['unbound', 'unbound-checkconf', 'unbound-control', 'dig'].filter((t) => !which(t));
if (tools.length > 0)
  console.warn(`unbound-audiences.test.ts: SKIPPED, missing ${tools.join(', ')} (scripts/net-tools.sh)`);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

describe.skipIf(tools.length > 0)('Unbound with audience zones', () => {
  let dir = '';
  let port = 0;
  let unbound: Daemon;
  const input = makeInput([
    makePolicy('everyone', [makeRule('dmn', 'all.example', 'block')], { precedence: 10 }),
    makePolicy(
      'sales-only',
      [makeRule('dmn', 'scoped.example', 'block'), makeRule('dmn', 'all.example', 'allow')],
      {
        precedence: 1,
        appliesTo: { users: [], groups: ['sales'], devices: [] },
      },
    ),
  ]);
  const identities = [
    { address: '127.0.0.2', deviceId: 'd1', userId: 'u1', groups: ['sales'] },
    { address: '127.0.0.3', deviceId: 'd2', userId: 'u2', groups: [] },
  ];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'unbound-aud-'));
    port = await freePort();
    const everyone = join(dir, 'rpz.zone');
    await writeFile(everyone, rpzZone(input, { serial: 1 }).text);
    const { audiences } = rpzAudiences(input, identities, { serial: 1 });
    const placed = audiences.map((a) => ({ ...a, path: join(dir, `rpz-${a.tag}.zone`) }));
    for (const a of placed) await writeFile(a.path, a.zone);
    // Names that exist without the internet: an authoritative zone the resolver takes as its upstream (not
    // local-data, which Unbound answers before any RPZ).
    const example = join(dir, 'example.zone');
    await writeFile(
      example,
      [
        '$ORIGIN example.',
        '@ 60 IN SOA ns.example. admin.example. ( 1 3600 600 86400 60 )',
        '@ 60 IN NS ns.example.',
        'ns 60 IN A 10.9.9.1',
        ...['all', 'scoped', 'other'].map((name) => `${name} 60 IN A 10.9.9.9`),
        '',
      ].join('\n'),
    );
    const include = join(dir, 'local.conf');
    await writeFile(
      include,
      `auth-zone:\n  name: "example."\n  zonefile: "${example}"\n  for-upstream: yes\n  for-downstream: no\n`,
    );
    const conf = join(dir, 'unbound.conf');
    await writeFile(
      conf,
      unboundConfText({
        dir,
        dnsPort: port,
        include,
        rpz: { path: everyone, origin: 'rpz.palisade.' },
        audiences: placed,
        addresses: [],
      }),
    );
    await run('unbound-checkconf', [conf]);
    unbound = new Daemon({
      name: 'unbound',
      command: 'unbound',
      args: ['-d', '-c', conf],
      dir,
      log: () => {},
      ready: () =>
        run('unbound-control', ['-c', conf, 'status']).then(
          () => true,
          () => false,
        ),
    });
    await unbound.start();
  }, 30_000);
  afterAll(async () => {
    await unbound?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const ask = async (from: string, name: string) => {
    const out = await run('dig', [
      '+tries=1',
      '+time=2',
      '-b',
      from,
      '-p',
      String(port),
      '@127.0.0.1',
      name,
      'A',
    ]);
    return /status: (\w+)/.exec(out)?.[1];
  };

  it("answers a member's device from the audience's zone and another user's device from everyone's", async () => {
    // The group's device: its own block applies, and its allow overrides everyone's block (precedence 1 < 10).
    expect(await ask('127.0.0.2', 'scoped.example')).toBe('NXDOMAIN');
    expect(await ask('127.0.0.2', 'all.example')).toBe('NOERROR');
    // Another user's device on the same resolver: the group's rules are not its rules.
    expect(await ask('127.0.0.3', 'scoped.example')).toBe('NOERROR');
    expect(await ask('127.0.0.3', 'all.example')).toBe('NXDOMAIN');
    // The gateway itself and unknown tunnel addresses see everyone's zone.
    expect(await ask('127.0.0.1', 'all.example')).toBe('NXDOMAIN');
    expect(await ask('127.0.0.1', 'other.example')).toBe('NOERROR');
  });
});
