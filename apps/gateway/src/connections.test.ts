import { ConnectionEventData, GW_EVENTS_MAX_BATCH, type GwBundle, GwEvent } from '@palisade/contracts';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { wireguardConfig } from '@palisade/gateway-config/wireguard';
import { describe, expect, it } from 'vitest';
import { HttpError } from './client';
import { ConnectionTracker, EventOutbox } from './connections';
import { parseWgDump, parseWgDumpPeers } from './metrics';

/**
 * Connection events from scripted `wg show <if> dump` samples: a device connects, stays, goes stale; counters
 * reset; a peer is removed; a mesh peer's tunnel goes up and down; and the outbox keeps what the server did not
 * take.
 */

const DEVICE = generateKeyPair().publicKey;
const OTHER_DEVICE = generateKeyPair().publicKey;
const STRANGER = generateKeyPair().publicKey;
const HUB = generateKeyPair().publicKey;
const DEVICE_ID = '6f1c1d5e-2b1a-4c7e-9d0a-1f2e3d4c5b6a';
const USER_ID = '0b8e4f2a-7c3d-4e5f-8a9b-0c1d2e3f4a5b';
const OTHER_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const s = (ms: number) => Math.floor(ms / 1000);

/** A bundle as a site gateway of the mesh gets it: two devices, the hub (with an endpoint). */
const BUNDLE: GwBundle = {
  version: 'v1.abcd0123',
  createdAt: new Date(T0).toISOString(),
  artefacts: {
    wireguard: wireguardConfig({
      address: '100.100.3.1/24',
      listenPort: 51820,
      privateKeyPlaceholder: true,
      peers: [
        { publicKey: DEVICE, allowedIps: ['100.64.0.2/32'], name: 'Ada laptop' },
        { publicKey: OTHER_DEVICE, allowedIps: ['100.64.0.3/32'], name: 'Kiosk' },
        { publicKey: STRANGER, allowedIps: ['100.64.0.9/32'] },
        {
          publicKey: HUB,
          allowedIps: ['100.100.1.1/32', '10.20.0.0/16'],
          name: 'Hub',
          endpoint: '203.0.113.9:51820',
          persistentKeepalive: 25,
        },
      ],
    }),
    nftables: '',
    rpz: '',
    squid: '',
  },
  policy: {},
  skipped: [],
  identities: [
    { address: '100.64.0.2', deviceId: DEVICE_ID, userId: USER_ID, groups: [] },
    { address: '100.64.0.3', deviceId: OTHER_ID, userId: null, groups: [] },
  ],
};

interface Line {
  key: string;
  /** Seconds since 1970 of the latest handshake; 0: never. */
  handshake: number;
  rx: number;
  tx: number;
  endpoint?: string;
  allowed?: string;
}

/** `wg show <if> dump` as wg prints it: the interface line, then a line per peer. */
const dumpOf = (lines: Line[]) =>
  [
    `cHJpdmF0ZQ==\t${generateKeyPair().publicKey}\t51820\toff`,
    ...lines.map((l) =>
      [
        l.key,
        '(none)',
        l.endpoint ?? '(none)',
        l.allowed ?? '(none)',
        String(l.handshake),
        String(l.rx),
        String(l.tx),
        'off',
      ].join('\t'),
    ),
  ].join('\n');

const device = (handshakeMs: number, rx: number, tx: number): Line => ({
  key: DEVICE,
  handshake: s(handshakeMs),
  rx,
  tx,
  endpoint: '198.51.100.7:41641',
  allowed: '100.64.0.2/32',
});

function tracker() {
  const t = new ConnectionTracker();
  t.setBundle(BUNDLE);
  return t;
}

/** One sample at `now`. */
const sample = (t: ConnectionTracker, now: number, lines: Line[]) =>
  t.observe(parseWgDumpPeers(dumpOf(lines)), now);

describe('the dump', () => {
  it('reads every column, (none) as nothing; the heartbeat keeps its own four', () => {
    const dump = dumpOf([
      device(T0, 10, 20),
      { key: HUB, handshake: 0, rx: 0, tx: 0, allowed: '100.100.1.1/32,10.20.0.0/16' },
    ]);
    expect(parseWgDumpPeers(dump)).toEqual([
      {
        publicKey: DEVICE,
        lastHandshakeAt: new Date(T0).toISOString(),
        rxBytes: 10,
        txBytes: 20,
        endpoint: '198.51.100.7:41641',
        allowedIps: ['100.64.0.2/32'],
      },
      {
        publicKey: HUB,
        lastHandshakeAt: null,
        rxBytes: 0,
        txBytes: 0,
        endpoint: null,
        allowedIps: ['100.100.1.1/32', '10.20.0.0/16'],
      },
    ]);
    expect(parseWgDump(dump)[0]).toEqual({
      publicKey: DEVICE,
      lastHandshakeAt: new Date(T0).toISOString(),
      rxBytes: 10,
      txBytes: 20,
    });
  });
});

describe('the connection tracker', () => {
  it('reports a device connecting, staying and going stale, with its duration and bytes', () => {
    const t = tracker();
    const connected = sample(t, T0 + 2_000, [device(T0, 1_000, 2_000)]);
    expect(connected).toEqual([
      {
        id: expect.stringMatching(/^conn-[0-9a-f]{16}-\d+-connected$/),
        at: new Date(T0).toISOString(),
        kind: 'connection',
        data: {
          action: 'connected',
          deviceId: DEVICE_ID,
          userId: USER_ID,
          peer: DEVICE,
          endpoint: '198.51.100.7:41641',
        },
      },
    ]);
    // Re-keyed every 2 minutes while it is used: still the same connection.
    expect(sample(t, T0 + 60_000, [device(T0, 4_000, 6_000)])).toEqual([]);
    expect(sample(t, T0 + 130_000, [device(T0 + 120_000, 5_000, 9_000)])).toEqual([]);
    expect(t.connected).toBe(1);
    // Nothing for 3 minutes after its last handshake: gone, dated when it went stale.
    const gone = sample(t, T0 + 400_000, [device(T0 + 120_000, 5_100, 9_000)]);
    expect(gone).toEqual([
      {
        id: expect.stringMatching(/^conn-[0-9a-f]{16}-\d+-disconnected$/),
        at: new Date(T0 + 300_000).toISOString(),
        kind: 'connection',
        data: {
          action: 'disconnected',
          deviceId: DEVICE_ID,
          userId: USER_ID,
          peer: DEVICE,
          endpoint: '198.51.100.7:41641',
          durationMs: 300_000,
          bytesIn: 5_100,
          bytesOut: 9_000,
        },
      },
    ]);
    expect(t.connected).toBe(0);
    expect(sample(t, T0 + 500_000, [device(T0 + 120_000, 5_100, 9_000)])).toEqual([]);
    // Up again: a new connection, its bytes counted from the previous sample.
    const again = sample(t, T0 + 610_000, [device(T0 + 600_000, 5_400, 9_050)]);
    expect(again.map((e) => [e.data.action, e.at])).toEqual([
      ['connected', new Date(T0 + 600_000).toISOString()],
    ]);
    const [down] = sample(t, T0 + 900_000, [device(T0 + 600_000, 5_400, 9_050)]);
    expect(down.data).toMatchObject({ durationMs: 180_000, bytesIn: 300, bytesOut: 50 });
    // Every event fits the protocol and the kind, and no two share an id.
    const all = [...connected, ...gone, ...again, down];
    for (const event of all) {
      expect(GwEvent.safeParse(event).success).toBe(true);
      expect(ConnectionEventData.safeParse(event.data).success).toBe(true);
      expect(event.id.length).toBeLessThanOrEqual(64);
    }
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it('counts a counter that went down (the peer added again) as new bytes', () => {
    const t = tracker();
    sample(t, T0 + 1_000, [device(T0, 1_000, 500)]);
    expect(sample(t, T0 + 60_000, [device(T0, 3_000, 800)])).toEqual([]);
    // Removed and added again between two samples: its counters start from zero, a new handshake follows.
    expect(sample(t, T0 + 90_000, [device(T0 + 85_000, 200, 100)])).toEqual([]);
    const [down] = sample(t, T0 + 300_000, [device(T0 + 85_000, 700, 100)]);
    expect(down.data).toMatchObject({
      action: 'disconnected',
      durationMs: 265_000,
      bytesIn: 3_000 + 700,
      bytesOut: 800 + 100,
    });
  });

  it('ends a connection whose peer left the interface at that sample', () => {
    const t = tracker();
    sample(t, T0 + 1_000, [
      device(T0, 100, 100),
      { ...device(T0, 0, 0), key: OTHER_DEVICE, allowed: '100.64.0.3/32' },
    ]);
    const events = sample(t, T0 + 45_000, [
      { ...device(T0, 10, 10), key: OTHER_DEVICE, allowed: '100.64.0.3/32' },
    ]);
    expect(events).toEqual([
      expect.objectContaining({
        at: new Date(T0 + 45_000).toISOString(),
        data: expect.objectContaining({
          action: 'disconnected',
          deviceId: DEVICE_ID,
          durationMs: 45_000,
          bytesIn: 100,
          bytesOut: 100,
        }),
      }),
    ]);
    // The other device, without a user, is still there.
    expect(t.connected).toBe(1);
    const [other] = sample(t, T0 + 50_000, []);
    expect(other.data).toMatchObject({
      action: 'disconnected',
      deviceId: OTHER_ID,
      userId: null,
      bytesIn: 10,
    });
  });

  it('reports a tunnel to another gateway as tunnel_up and tunnel_down, naming no device', () => {
    const t = tracker();
    const hub = (handshakeMs: number, rx: number, tx: number): Line => ({
      key: HUB,
      handshake: s(handshakeMs),
      rx,
      tx,
      endpoint: '203.0.113.9:51820',
      allowed: '100.100.1.1/32,10.20.0.0/16',
    });
    const [up] = sample(t, T0 + 1_000, [hub(T0, 92, 148)]);
    expect(up.data).toEqual({ action: 'tunnel_up', peer: HUB, endpoint: '203.0.113.9:51820' });
    const [down] = sample(t, T0 + 200_000, [hub(T0, 20_092, 30_148)]);
    expect(down.data).toEqual({
      action: 'tunnel_down',
      peer: HUB,
      endpoint: '203.0.113.9:51820',
      durationMs: 180_000,
      bytesIn: 20_092,
      bytesOut: 30_148,
    });
    // Known from the bundle alone when the interface's line has no AllowedIPs.
    expect(t.roleOf(HUB, [])).toEqual({ kind: 'gateway' });
    // The hub as a site sees it: its device network behind it, its tunnel address first.
    expect(t.roleOf(generateKeyPair().publicKey, ['100.100.7.1/32', '100.64.0.0/16'])).toEqual({
      kind: 'gateway',
    });
    // A device address the bundle names nobody at: a device, unnamed.
    expect(t.roleOf(STRANGER, ['100.64.0.9/32'])).toEqual({ kind: 'device', deviceId: null, userId: null });
  });

  it('reports the peers already active at start once, and nothing for idle ones', () => {
    const t = tracker();
    const lines = [
      device(T0 - 100_000, 50_000, 70_000),
      { key: OTHER_DEVICE, handshake: s(T0 - 3_600_000), rx: 9, tx: 9, allowed: '100.64.0.3/32' },
      { key: STRANGER, handshake: 0, rx: 0, tx: 0, allowed: '100.64.0.9/32' },
    ];
    const first = sample(t, T0, lines);
    expect(first.map((e) => [e.data.action, e.data.deviceId, e.at])).toEqual([
      ['connected', DEVICE_ID, new Date(T0 - 100_000).toISOString()],
    ]);
    expect(sample(t, T0 + 5_000, lines)).toEqual([]);
    expect(sample(t, T0 + 10_000, lines)).toEqual([]);
  });

  it('ends and restarts a connection that went stale and came back between two samples', () => {
    const t = tracker();
    sample(t, T0 + 1_000, [device(T0, 100, 100)]);
    const events = sample(t, T0 + 600_000, [device(T0 + 590_000, 300, 300)]);
    expect(events.map((e) => [e.data.action, e.at, e.data.durationMs])).toEqual([
      ['disconnected', new Date(T0 + 180_000).toISOString(), 180_000],
      ['connected', new Date(T0 + 590_000).toISOString(), undefined],
    ]);
  });
});

describe('the outbox', () => {
  const event = (n: number): GwEvent => ({
    id: `e${n}`,
    at: new Date(T0 + n).toISOString(),
    kind: 'connection',
    data: { action: 'connected' },
  });
  const events = (from: number, count: number) => Array.from({ length: count }, (_, i) => event(from + i));

  it('keeps the events when a post fails and sends them, in order, with the next flush', async () => {
    const logs: string[] = [];
    const outbox = new EventOutbox({ log: (line) => logs.push(line) });
    outbox.push(events(0, 3));
    const failing = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    await expect(outbox.flush(failing)).rejects.toThrow('ECONNREFUSED');
    await expect(
      outbox.flush(() => Promise.reject(new HttpError(503, '/gw/events', 'busy'))),
    ).rejects.toThrow(/503/);
    expect(outbox.size).toBe(3);
    outbox.push(events(3, 2));
    const posted: string[][] = [];
    expect(await outbox.flush(async (batch) => posted.push(batch.map((e) => e.id)))).toBe(5);
    expect(posted).toEqual([['e0', 'e1', 'e2', 'e3', 'e4']]);
    expect(outbox.size).toBe(0);
    expect(logs).toEqual([]);
  });

  it('holds at most its bound, dropping the oldest with a log line', () => {
    const logs: string[] = [];
    const outbox = new EventOutbox({ max: 10_000, log: (line) => logs.push(line) });
    outbox.push(events(0, 9_999));
    expect(logs).toEqual([]);
    outbox.push(events(9_999, 6));
    expect(outbox.size).toBe(10_000);
    expect(logs).toEqual([
      'connection events: 5 dropped, the oldest (more than 10000 waiting for the server)',
    ]);
  });

  it('posts in batches the server takes, and drops a batch it refuses for good', async () => {
    const logs: string[] = [];
    const outbox = new EventOutbox({ log: (line) => logs.push(line) });
    outbox.push(events(0, GW_EVENTS_MAX_BATCH + 10));
    const sizes: number[] = [];
    let calls = 0;
    const posted = await outbox.flush(async (batch) => {
      sizes.push(batch.length);
      if (calls++ === 0) throw new HttpError(400, '/gw/events', 'line 3: data.action');
    });
    expect(sizes).toEqual([GW_EVENTS_MAX_BATCH, 10]);
    expect(posted).toBe(10);
    expect(outbox.size).toBe(0);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/refused 5000 .*HTTP 400.*dropped/);
  });
});
