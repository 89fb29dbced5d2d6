import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GwBundle, GwEvent } from '@palisade/contracts';
import { squidDecisionOf } from '@palisade/gateway-config';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_ENV } from '../exec';
import { needsTest } from '../test-kit';
import { Attribution } from './attribution';
import { runDecisionTelemetry } from './index';
import { DiskEventQueue } from './queue';
import { squidDecisions } from './squid-log';
import { nflogDecisions, parseUlogdLine, ulogdConfText } from './ulogd';
import { parseUnboundLine, rpzLogLines, UnboundDecisions, unboundLogLines } from './unbound-log';

/**
 * Real decision telemetry: the lines Unbound, ulogd2 (NFLOG) and squid write, turned into decision events of the
 * device behind each tunnel address with the rule that decided; the disk queue they wait in. The log formats
 * are proven against the real tools (unbound 1.17 on a free loopback port; ulogd2 and nft in a namespace).
 */
const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-decisions-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ANN = {
  deviceId: '11111111-1111-4111-8111-111111111111',
  userId: '22222222-2222-4222-8222-222222222222',
};
const BEN = {
  deviceId: '33333333-3333-4333-8333-333333333333',
  userId: '44444444-4444-4444-8444-444444444444',
};
const input = makeInput([
  makePolicy('p-staff', [makeRule('dmn', 'casino.example', 'block', { id: 'r-casino', name: 'No casinos' })]),
]);
const bundle = {
  version: 'v1',
  createdAt: new Date().toISOString(),
  artefacts: { wireguard: '[Interface]\nAddress = 10.7.0.1/24\n', nftables: '', rpz: '', squid: '' },
  policy: input,
  skipped: [],
  identities: [
    { address: '10.7.0.2', ...ANN, groups: [] },
    { address: '10.7.0.3/32', ...BEN, groups: [] },
  ],
} as unknown as GwBundle;

describe('Unbound log lines', () => {
  const lines = [
    '[1796227046] unbound[9296:0] info: start of service (unbound 1.17.1).',
    '[1796227048] unbound[9296:0] info: rpz: applied [everyone] casino.example. rpz-nxdomain 10.7.0.2@58805 www.casino.example. A IN',
    '[1796227048] unbound[9296:0] reply: 10.7.0.2 www.casino.example. A IN NXDOMAIN 0.000000 1 44',
    '[1796227048] unbound[9296:0] info: rpz: applied [everyone] casino.example. rpz-nxdomain 10.7.0.2@58806 www.casino.example. AAAA IN',
    '[1796227048] unbound[9296:0] reply: 10.7.0.2 www.casino.example. AAAA IN NXDOMAIN 0.000000 1 44',
    '[1796227049] unbound[9296:0] reply: 10.7.0.3 intranet.example. A IN NOERROR 0.010000 0 60',
    '[1796227049] unbound[9296:0] reply: 127.0.0.1 deb.debian.org. A IN NOERROR 0.010000 0 60',
    '[1796227049] unbound[9296:0] reply: 10.7.0.1 squid-lookup.example. A IN NOERROR 0.010000 0 60',
    '[1796227050] unbound[9296:0] info: rpz: applied [everyone] ok.casino.example. rpz-passthru 10.7.0.3@1000 ok.casino.example. A IN',
    '[1796227050] unbound[9296:0] reply: 10.7.0.3 ok.casino.example. A IN NOERROR 0.000000 1 60',
  ];

  it('parses rewrites and answers, and nothing else', () => {
    expect(lines.map(parseUnboundLine).map((l) => l?.kind ?? null)).toEqual([
      null,
      'rpz',
      'reply',
      'rpz',
      'reply',
      'reply',
      'reply',
      'reply',
      'rpz',
      'reply',
    ]);
    expect(parseUnboundLine(lines[1])).toEqual({
      kind: 'rpz',
      at: 1796227048000,
      zone: 'everyone',
      trigger: 'casino.example',
      action: 'rpz-nxdomain',
      client: '10.7.0.2',
      qname: 'www.casino.example',
      qtype: 'A',
    });
  });

  it("makes one decision per lookup, of the device behind the address, with the engine's rule", () => {
    const attribution = new Attribution(bundle);
    const events = new UnboundDecisions(() => attribution).take(lines);
    expect(events).toEqual([
      {
        at: 1796227048000,
        layer: 'dns',
        decision: 'block',
        destination: 'www.casino.example',
        ...ANN,
        ruleId: 'r-casino',
        ruleName: 'No casinos',
        source: 'gateway',
      },
      expect.objectContaining({ destination: 'intranet.example', decision: 'allow', ...BEN, ruleId: null }),
      // A passthru rewrite lets the name through; the engine says block, so no rule is claimed for it.
      expect.objectContaining({ destination: 'ok.casino.example', decision: 'allow', ruleId: null }),
    ]);
  });

  it('names the rule of a block answered by the zone of the bundle before, while the next one is applied', () => {
    // The next bundle lifts the casino block: a line Unbound wrote before its reload, read after the switch, is
    // still the old zone's block and keeps its rule; one the new engine explains takes the new bundle's rule.
    const lifted = {
      ...bundle,
      version: 'v2',
      policy: makeInput([
        makePolicy('p-staff', [makeRule('dmn', 'news.example', 'block', { id: 'r-news', name: 'No news' })]),
      ]),
    } as unknown as GwBundle;
    const next = new Attribution(lifted, new Attribution(bundle));
    expect(next.dnsRuleOf('www.casino.example', '10.7.0.2', 'block')).toBe('r-casino');
    expect(next.ruleNameOf('r-casino')).toBe('No casinos');
    expect(next.dnsRuleOf('news.example', '10.7.0.2', 'block')).toBe('r-news');
    // Neither engine blocks it: no rule is claimed.
    expect(next.dnsRuleOf('intranet.example', '10.7.0.2', 'block')).toBeNull();
    next.forgetPrevious();
    expect(next.dnsRuleOf('www.casino.example', '10.7.0.2', 'block')).toBeNull();
  });

  it('writes the log options and an rpz clause name that the log can carry', () => {
    expect(unboundLogLines('/var/lib/pal/unbound.log')).toContain('  logfile: "/var/lib/pal/unbound.log"');
    expect(rpzLogLines('a0123456789ab')).toEqual(['  rpz-log: yes', '  rpz-log-name: "a0123456789ab"']);
    expect(() => rpzLogLines('with space')).toThrow(/plain name/);
  });

  needsTest(
    'a real Unbound logs what the parser reads: blocked, passed through and plain answers',
    ['unbound', 'unbound-checkconf'],
    async () => {
      const dir = temp();
      const zone = join(dir, 'rpz.zone');
      writeFileSync(
        zone,
        [
          '$ORIGIN rpz.test.',
          '$TTL 60',
          '@ IN SOA localhost. root.localhost. 1 3600 600 86400 60',
          '@ IN NS localhost.',
          'casino.example IN CNAME .',
          '*.casino.example IN CNAME .',
          'page.example IN A 192.0.2.1',
          'ok.casino.example IN CNAME rpz-passthru.',
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'local.conf'),
        'server:\n  local-zone: "intranet.example." static\n  local-data: "intranet.example. A 198.51.100.7"\n',
      );
      const port = 20000 + Math.floor(Math.random() * 20000);
      const log = join(dir, 'unbound.log');
      const conf = join(dir, 'unbound.conf');
      writeFileSync(
        conf,
        [
          'server:',
          '  interface: 127.0.0.1',
          `  port: ${port}`,
          '  do-daemonize: no',
          '  username: ""',
          '  chroot: ""',
          `  directory: "${dir}"`,
          '  pidfile: ""',
          ...unboundLogLines(log),
          '  do-ip6: no',
          '  module-config: "respip validator iterator"',
          '  access-control: 127.0.0.0/8 allow',
          `  include: "${join(dir, 'local.conf')}"`,
          'rpz:',
          '  name: "rpz.test."',
          `  zonefile: "${zone}"`,
          ...rpzLogLines('everyone'),
          '',
        ].join('\n'),
      );
      expect(spawnSync('unbound-checkconf', [conf], { env: TOOL_ENV }).status).toBe(0);
      const unbound = spawn('unbound', ['-c', conf], { env: TOOL_ENV, stdio: 'ignore' });
      try {
        const ask = (name: string) => query('127.0.0.1', port, name);
        // Up once it answers.
        for (let i = 0; i < 50 && (await ask('intranet.example').catch(() => null)) === null; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        for (const name of ['www.casino.example', 'page.example', 'ok.casino.example', 'intranet.example']) {
          await ask(name);
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      } finally {
        unbound.kill('SIGTERM');
      }
      const lines = readFileSync(log, 'utf8').split('\n');
      const attribution = new Attribution(bundle);
      // Asked from loopback here: nothing is skipped.
      const events = new UnboundDecisions(
        () => attribution,
        () => false,
      ).take(lines);
      const verdicts = Object.fromEntries(events.map((e) => [e.destination, e.decision]));
      expect(verdicts).toEqual({
        'intranet.example': 'allow',
        'www.casino.example': 'block',
        'page.example': 'block',
        'ok.casino.example': 'allow',
      });
      expect(events.find((e) => e.destination === 'www.casino.example')?.ruleId).toBe('r-casino');
      // The exact shapes, for the record.
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^\[\d+\] unbound\[\d+:\d+\] info: rpz: applied \[everyone\] \*\.casino\.example\. rpz-nxdomain 127\.0\.0\.1@\d+ www\.casino\.example\. A IN$/,
        ),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^\[\d+\] unbound\[\d+:\d+\] reply: 127\.0\.0\.1 intranet\.example\. A IN NOERROR [\d.]+ \d \d+$/,
        ),
      );
    },
    30_000,
  );
});

/** One DNS query (A, recursion desired) over UDP; resolves with the answer's rcode. */
function query(server: string, port: number, name: string): Promise<number> {
  const labels = name.split('.').flatMap((label) => [Buffer.from([label.length]), Buffer.from(label)]);
  const packet = Buffer.concat([
    Buffer.from([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]),
    ...labels,
    Buffer.from([0, 0, 1, 0, 1]),
  ]);
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no answer'));
    }, 1000);
    socket.once('message', (answer) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer[3] & 0x0f);
    });
    socket.send(packet, port, server);
  });
}

describe('NFLOG through ulogd2', () => {
  const line = JSON.stringify({
    timestamp: '2026-12-02T15:59:14.656940',
    'oob.prefix': 'pal block r-ssh ',
    'oob.time.sec': 1796227154,
    'oob.time.usec': 656940,
    'ip.protocol': 6,
    src_port: 58606,
    dest_port: 22,
    src_ip: '10.7.0.3',
    dest_ip: '192.0.2.9',
  });

  it('parses the prefix, addresses, port and protocol; the default accept names no rule', () => {
    expect(parseUlogdLine(line)).toEqual({
      at: 1796227154657,
      verdict: 'block',
      ruleId: 'r-ssh',
      source: '10.7.0.3',
      destination: '192.0.2.9',
      port: 22,
      protocol: 'tcp',
    });
    const accepted = line
      .replace('pal block r-ssh ', 'pal allow - ')
      .replace('"ip.protocol":6', '"ip.protocol":17');
    expect(parseUlogdLine(accepted)).toMatchObject({ verdict: 'allow', ruleId: null, protocol: 'udp' });
    expect(parseUlogdLine(line.replace('pal block', 'other block'))).toBeNull();
    expect(parseUlogdLine('not json')).toBeNull();
    expect(nflogDecisions([line], new Attribution(bundle))).toEqual([
      expect.objectContaining({
        layer: 'network',
        decision: 'block',
        destination: '192.0.2.9',
        port: 22,
        ...BEN,
      }),
    ]);
  });

  needsTest(
    'a real ulogd2 writes what the parser reads for an nft rule logging to group 7',
    ['root', 'netns', 'nft', 'ulogd'],
    async () => {
      const dir = temp();
      const ns = `pgwul${Math.random().toString(16).slice(2, 8)}`;
      const sh = (args: string[], stdin?: string) =>
        spawnSync(args[0], args.slice(1), { env: TOOL_ENV, input: stdin, encoding: 'utf8' });
      expect(sh(['ip', 'netns', 'add', ns]).status).toBe(0);
      let ulogd: ReturnType<typeof spawn> | null = null;
      try {
        sh(['ip', '-n', ns, 'link', 'set', 'lo', 'up']);
        const ruleset = [
          'table inet t {',
          '  chain out {',
          '    type filter hook output priority 0;',
          '    ct state new tcp dport 9 log prefix "pal block r-nine " group 7 drop',
          '    ct state new tcp dport 7 log prefix "pal allow - " group 7 accept',
          '  }',
          '}',
        ].join('\n');
        const nft = sh(['ip', 'netns', 'exec', ns, 'nft', '-f', '-'], ruleset);
        expect(nft.status, nft.stderr).toBe(0);
        const json = join(dir, 'nflog.json');
        const conf = join(dir, 'ulogd.conf');
        writeFileSync(conf, ulogdConfText({ jsonPath: json, logPath: join(dir, 'ulogd.log') }));
        ulogd = spawn('ip', ['netns', 'exec', ns, '/usr/sbin/ulogd', '-c', conf], {
          env: TOOL_ENV,
          stdio: 'ignore',
        });
        for (let i = 0; i < 50 && !existsSync(json); i++) await new Promise((r) => setTimeout(r, 100));
        for (const port of [9, 7]) {
          sh(['ip', 'netns', 'exec', ns, 'timeout', '1', 'bash', '-c', `echo > /dev/tcp/127.0.0.1/${port}`]);
        }
        let lines: string[] = [];
        for (let i = 0; i < 50 && lines.length < 2; i++) {
          await new Promise((r) => setTimeout(r, 100));
          lines = readFileSync(json, 'utf8').split('\n').filter(Boolean);
        }
        const parsed = lines.map(parseUlogdLine);
        expect(parsed).toEqual([
          expect.objectContaining({
            verdict: 'block',
            ruleId: 'r-nine',
            destination: '127.0.0.1',
            port: 9,
            protocol: 'tcp',
          }),
          expect.objectContaining({
            verdict: 'allow',
            ruleId: null,
            destination: '127.0.0.1',
            port: 7,
            protocol: 'tcp',
          }),
        ]);
      } finally {
        ulogd?.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 200));
        sh(['ip', 'netns', 'del', ns]);
      }
    },
    30_000,
  );
});

describe("squid's access log", () => {
  it('names the rule, the client and the host of each request', () => {
    const lines = [
      '1796227154.123 10.7.0.2 GET plain.example - http://plain.example/files/setup.exe 302 TCP_DENIED block:r-exe 0',
      '1796227155.000 10.7.0.3 CONNECT - news.example - 200 TCP_TUNNEL allow:- 5120',
    ];
    expect(lines.map(squidDecisionOf).every((d) => d !== null)).toBe(true);
    expect(squidDecisions(lines, new Attribution(bundle))).toEqual([
      expect.objectContaining({
        layer: 'http',
        decision: 'block',
        destination: 'plain.example',
        port: 80,
        ruleId: 'r-exe',
        ...ANN,
      }),
      expect.objectContaining({
        layer: 'http',
        decision: 'allow',
        destination: 'news.example',
        port: 443,
        ruleId: null,
        ...BEN,
        bytes: 5120,
      }),
    ]);
  });
});

const event = (n: number): GwEvent => ({
  id: `e${n}`,
  at: new Date(1_790_000_000_000 + n).toISOString(),
  kind: 'decision',
  data: { layer: 'dns', decision: 'allow', destination: `n${n}.example` },
});

describe('the disk event queue', () => {
  it('keeps events across a restart until they are taken, in order', async () => {
    const dir = temp();
    const queue = await DiskEventQueue.open({ dir, segmentEvents: 3 });
    await queue.append([1, 2, 3, 4, 5].map(event));
    const first = queue.peek(2);
    expect(first.events.map((e) => e.id)).toEqual(['e1', 'e2']);
    await queue.ack(first.end);
    expect(queue.size).toBe(3);
    // A new run finds what was not taken.
    const again = await DiskEventQueue.open({ dir, segmentEvents: 3 });
    expect(again.peek(10).events.map((e) => e.id)).toEqual(['e3', 'e4', 'e5']);
    await again.append([event(6)]);
    const all = again.peek(10);
    await again.ack(all.end);
    expect(again.size).toBe(0);
    expect((await DiskEventQueue.open({ dir })).size).toBe(0);
  });

  it('drops the oldest beyond its bound, counting them, and never acks an event it did not hand out', async () => {
    const dir = temp();
    const logs: string[] = [];
    const queue = await DiskEventQueue.open({
      dir,
      maxEvents: 4,
      segmentEvents: 2,
      log: (l) => logs.push(l),
    });
    await queue.append([1, 2, 3].map(event));
    const taken = queue.peek(2); // e1, e2 on their way
    await queue.append([4, 5, 6].map(event)); // six: the two oldest dropped
    expect(queue.dropped).toBe(2);
    expect(logs.join('\n')).toMatch(/2 oldest dropped/);
    await queue.ack(taken.end); // e1 and e2 are gone already: nothing else goes
    expect(queue.peek(10).events.map((e) => e.id)).toEqual(['e3', 'e4', 'e5', 'e6']);
    expect((await DiskEventQueue.open({ dir })).dropped).toBe(2);
  });
});

describe('runDecisionTelemetry', () => {
  it('posts what the logs say, keeps it on disk through an outage, and flushes on a clean stop', async () => {
    const dir = temp();
    const paths = {
      unbound: join(dir, 'unbound.log'),
      squid: join(dir, 'access.log'),
      nflog: join(dir, 'nflog.json'),
    };
    const posted: GwEvent[] = [];
    let failing = false;
    const stop = new AbortController();
    const running = runDecisionTelemetry({
      dir,
      bundle: () => bundle,
      post: async (events) => {
        if (failing) throw Object.assign(new Error('console down'), { status: 503 });
        posted.push(...events);
      },
      signal: stop.signal,
      delay: () => 50,
      log: () => {},
      ulogd: false,
      paths,
      tickMs: 50,
    });
    await new Promise((r) => setTimeout(r, 100));
    appendFileSync(
      paths.unbound,
      '[1796227048] unbound[1:0] reply: 10.7.0.2 seen.example. A IN NOERROR 0.000000 0 44\n',
    );
    await waitFor(() => posted.length === 1);
    expect(posted[0]).toMatchObject({
      kind: 'decision',
      data: { layer: 'dns', destination: 'seen.example', source: 'gateway', deviceId: ANN.deviceId },
    });
    failing = true;
    appendFileSync(
      paths.nflog,
      `${JSON.stringify({ 'oob.prefix': 'pal block r-1 ', src_ip: '10.7.0.3', dest_ip: '192.0.2.1', dest_port: 22, 'ip.protocol': 6, 'oob.time.sec': 1796227049 })}\n`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(posted).toHaveLength(1);
    failing = false;
    // Back: the event queued meanwhile goes out; a line written just before the stop is not lost.
    appendFileSync(
      paths.squid,
      '1796227155.000 10.7.0.3 CONNECT - news.example - 200 TCP_TUNNEL allow:- 5120\n',
    );
    stop.abort();
    await running;
    expect(posted.map((e) => e.data.layer).sort()).toEqual(['dns', 'http', 'network']);
    expect(new Set(posted.map((e) => e.id)).size).toBe(3);
  });

  it('sends after the next start what a stop could not', async () => {
    const dir = temp();
    const paths = {
      unbound: join(dir, 'unbound.log'),
      squid: join(dir, 'access.log'),
      nflog: join(dir, 'nflog.json'),
    };
    const run = (post: (events: GwEvent[]) => Promise<void>, signal: AbortSignal) =>
      runDecisionTelemetry({
        dir,
        bundle: () => bundle,
        post,
        signal,
        delay: () => 50,
        log: () => {},
        ulogd: false,
        paths,
        tickMs: 50,
        flushMs: 200,
      });
    const first = new AbortController();
    const down = run(async () => {
      throw Object.assign(new Error('console down'), { status: 503 });
    }, first.signal);
    await new Promise((r) => setTimeout(r, 100));
    appendFileSync(
      paths.unbound,
      '[1796227048] unbound[1:0] reply: 10.7.0.2 later.example. A IN NOERROR 0.000000 0 44\n',
    );
    await new Promise((r) => setTimeout(r, 200));
    first.abort();
    await down;
    const posted: GwEvent[] = [];
    const second = new AbortController();
    const up = run(async (events) => {
      posted.push(...events);
    }, second.signal);
    await waitFor(() => posted.length === 1);
    second.abort();
    await up;
    expect(posted[0].data).toMatchObject({ destination: 'later.example', deviceId: ANN.deviceId });
  });
});

async function waitFor(condition: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
