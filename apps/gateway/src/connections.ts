import { createHash } from 'node:crypto';
import {
  DEVICE_TUNNEL_NETWORK,
  GW_EVENTS_MAX_BATCH,
  type GwBundle,
  type GwEvent,
  Uuid,
} from '@palisade/contracts';
import { type Block, blockInterval, formatAddress, parseBlock } from '@palisade/gateway-config/net';
import { ACTIVE_MS, type DumpPeer } from './metrics';

/**
 * Connection events from the WireGuard interface itself (telemetry kind `connection`): the tracker is fed the
 * `wg show <interface> dump` each heartbeat takes and tells what changed since the previous one.
 *
 * - A peer whose latest handshake becomes recent (at most {@link ACTIVE_MS} old, the heartbeat's rule for an
 *   active peer) is `connected` — `tunnel_up` when the peer is another gateway (the mesh's hub or a site) —
 *   dated at that handshake.
 * - A connected peer whose handshake goes stale is `disconnected` (`tunnel_down`) dated when it went stale (its
 *   last handshake + {@link ACTIVE_MS}, or the sample when that is earlier); a peer gone from the dump (the
 *   bundle dropped it) ends the same way, at the latest at the sample that missed it. Both carry how long it was
 *   up (`durationMs`) and the bytes received from (`bytesIn`) and sent to (`bytesOut`) the peer meanwhile:
 *   WireGuard's counters per peer, summed between samples; a counter that went down was reset (the peer was
 *   removed and added again), and then all of it is new.
 * - The first sample after a start reports the peers already active as `connected`, once, dated at their latest
 *   handshake: the gateway just learned of them (it cannot know when they really came up), and a disconnect it
 *   later reports needs its connect. Their bytes count from what the counters held then (WireGuard counts from
 *   when the peer was added, which is this gateway's own interface).
 *
 * Who a peer is comes from the bundle: a peer whose AllowedIPs hold a device's tunnel address (`identities`)
 * is that device and its user; a peer routed a gateway tunnel address (100.100.0.0/16: the gateways' tunnels,
 * which only mesh peers are routed) is a gateway; other peers with only device tunnel addresses are devices the
 * bundle does not name. Event ids (`conn-<key hash>-<epoch ms>-<action>`) are fixed when the event is made, so
 * a batch sent again is stored once.
 */

/** The gateways' tunnel networks: a /24 of this /16 each; only mesh peers are routed an address of it. */
const GATEWAY_TUNNELS = '100.100.0.0/16';

export type PeerRole =
  | { kind: 'device'; deviceId: string | null; userId: string | null }
  | { kind: 'gateway' };

interface Live {
  /** Epoch ms of the handshake that brought it up. */
  since: number;
  lastHandshake: number;
  bytesIn: number;
  bytesOut: number;
  role: PeerRole;
  endpoint: string | null;
}

const blockOf = (text: string) => parseBlock(text);
const intervalOf = (text: string) => blockInterval(blockOf(text) as Block);
const inside = (block: Block, outer: ReturnType<typeof intervalOf>) =>
  block.family === outer.family && block.network >= outer.first && block.network <= outer.last;
const GATEWAYS = intervalOf(GATEWAY_TUNNELS);
const DEVICES = intervalOf(DEVICE_TUNNEL_NETWORK);
const hostBits = (block: Block) => (block.family === 4 ? 32 : 128);

/** `[Peer]` sections of a wg-quick text: each public key's AllowedIPs and whether it has an Endpoint. */
export function bundlePeers(config: string): Map<string, { allowedIps: string[]; hasEndpoint: boolean }> {
  const peers = new Map<string, { allowedIps: string[]; hasEndpoint: boolean }>();
  let current: { allowedIps: string[]; hasEndpoint: boolean } | null = null;
  for (const line of config.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      current = header[1].toLowerCase() === 'peer' ? { allowedIps: [], hasEndpoint: false } : null;
      continue;
    }
    const pair = /^\s*([A-Za-z]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!current || !pair) continue;
    const key = pair[1].toLowerCase();
    if (key === 'publickey') peers.set(pair[2], current);
    if (key === 'allowedips') current.allowedIps.push(...pair[2].split(',').map((a) => a.trim()));
    if (key === 'endpoint') current.hasEndpoint = pair[2] !== '';
  }
  return peers;
}

const ACTIONS = {
  device: { up: 'connected', down: 'disconnected' },
  gateway: { up: 'tunnel_up', down: 'tunnel_down' },
} as const;

const keyHash = (publicKey: string) => createHash('sha256').update(publicKey).digest('hex').slice(0, 16);

export class ConnectionTracker {
  private identities = new Map<string, { deviceId: string; userId: string | null }>();
  private peers = new Map<string, { allowedIps: string[]; hasEndpoint: boolean }>();
  /** The counters of every peer of the previous sample. */
  private counters = new Map<string, { rx: number; tx: number }>();
  private live = new Map<string, Live>();

  /** Who is behind each tunnel address, and the bundle's peers (called with each bundle the gateway takes). */
  setBundle(bundle: GwBundle): void {
    this.identities = new Map();
    for (const identity of bundle.identities ?? []) {
      const block = blockOf(identity.address);
      if (!block || !Uuid.safeParse(identity.deviceId).success) continue;
      this.identities.set(formatAddress(block.family, block.network), {
        deviceId: identity.deviceId,
        userId: identity.userId !== null && Uuid.safeParse(identity.userId).success ? identity.userId : null,
      });
    }
    this.peers = bundlePeers(bundle.artefacts.wireguard);
  }

  /** The peers connected now (for tests and logs). */
  get connected(): number {
    return this.live.size;
  }

  /** A peer's role from its AllowedIPs (the interface's, else the bundle's) and the bundle's identities. */
  roleOf(publicKey: string, allowedIps: readonly string[]): PeerRole {
    const known = this.peers.get(publicKey);
    const blocks = (allowedIps.length > 0 ? allowedIps : (known?.allowedIps ?? []))
      .map(blockOf)
      .filter((b): b is Block => b !== null);
    for (const block of blocks) {
      if (block.prefix !== hostBits(block)) continue;
      const identity = this.identities.get(formatAddress(block.family, block.network));
      if (identity) return { kind: 'device', ...identity };
    }
    if (blocks.some((block) => inside(block, GATEWAYS))) return { kind: 'gateway' };
    const isDeviceLike =
      blocks.length > 0 &&
      blocks.every((block) => block.prefix === hostBits(block) && inside(block, DEVICES));
    // Devices roam: the console never gives their peers an Endpoint; a gateway peer may have one.
    if (!isDeviceLike && known?.hasEndpoint) return { kind: 'gateway' };
    return { kind: 'device', deviceId: null, userId: null };
  }

  /** One sample of the interface (`parseWgDumpPeers` of `wg show <if> dump`): the events since the previous. */
  observe(peers: readonly DumpPeer[], now = Date.now()): GwEvent[] {
    const events: GwEvent[] = [];
    const present = new Set<string>();
    for (const peer of peers) {
      if (present.has(peer.publicKey)) continue;
      present.add(peer.publicKey);
      const before = this.counters.get(peer.publicKey);
      // A counter that went down was reset (the peer was added again): all of it is new.
      const rx = before === undefined || peer.rxBytes < before.rx ? peer.rxBytes : peer.rxBytes - before.rx;
      const tx = before === undefined || peer.txBytes < before.tx ? peer.txBytes : peer.txBytes - before.tx;
      this.counters.set(peer.publicKey, { rx: peer.rxBytes, tx: peer.txBytes });
      const handshake = peer.lastHandshakeAt === null ? null : Date.parse(peer.lastHandshakeAt);
      const isActive = handshake !== null && now - handshake <= ACTIVE_MS;
      let live = this.live.get(peer.publicKey);
      if (live && !isActive) {
        // Stale since the last sample: what it moved meanwhile belongs to the connection that ends.
        live.bytesIn += rx;
        live.bytesOut += tx;
        live.endpoint = peer.endpoint ?? live.endpoint;
        events.push(this.ended(peer.publicKey, live, now));
        this.live.delete(peer.publicKey);
        continue;
      }
      if (live && (handshake as number) - live.lastHandshake > ACTIVE_MS) {
        // Stale and up again between two samples: that one ended, a new one (with these bytes) began.
        events.push(this.ended(peer.publicKey, live, now));
        this.live.delete(peer.publicKey);
        live = undefined;
      }
      if (live) {
        live.lastHandshake = Math.max(live.lastHandshake, handshake as number);
        live.bytesIn += rx;
        live.bytesOut += tx;
        live.endpoint = peer.endpoint ?? live.endpoint;
      } else if (isActive) {
        const started: Live = {
          since: handshake as number,
          lastHandshake: handshake as number,
          bytesIn: rx,
          bytesOut: tx,
          role: this.roleOf(peer.publicKey, peer.allowedIps),
          endpoint: peer.endpoint,
        };
        this.live.set(peer.publicKey, started);
        events.push(this.event(peer.publicKey, started, started.since, 'up'));
      }
    }
    for (const [publicKey, live] of this.live) {
      if (present.has(publicKey)) continue;
      events.push(this.ended(publicKey, live, now));
      this.live.delete(publicKey);
    }
    for (const publicKey of this.counters.keys())
      if (!present.has(publicKey)) this.counters.delete(publicKey);
    return events;
  }

  private ended(publicKey: string, live: Live, now: number): GwEvent {
    const at = Math.max(live.since, Math.min(now, live.lastHandshake + ACTIVE_MS));
    return this.event(publicKey, live, at, 'down');
  }

  private event(publicKey: string, live: Live, at: number, direction: 'up' | 'down'): GwEvent {
    const action = ACTIONS[live.role.kind][direction];
    const who = live.role.kind === 'device' ? { deviceId: live.role.deviceId, userId: live.role.userId } : {};
    return {
      id: `conn-${keyHash(publicKey)}-${at}-${action}`,
      at: new Date(at).toISOString(),
      kind: 'connection',
      data: {
        action,
        ...who,
        peer: publicKey,
        endpoint: live.endpoint !== null && live.endpoint.length <= 64 ? live.endpoint : null,
        ...(direction === 'down'
          ? { durationMs: at - live.since, bytesIn: live.bytesIn, bytesOut: live.bytesOut }
          : {}),
      },
    };
  }
}

/** Whether the server refused a batch for good (a 4xx other than 408/429): sending it again changes nothing. */
const isRefused = (error: unknown) => {
  const status =
    typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
      ? (error as { status: number }).status
      : null;
  return status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
};

/**
 * Events waiting for the server, oldest first: at most `max` (beyond, the oldest are dropped, with a log line);
 * {@link flush} posts them in batches of at most {@link GW_EVENTS_MAX_BATCH} and keeps what did not go.
 */
export class EventOutbox {
  private queue: { seq: number; event: GwEvent }[] = [];
  private seq = 0;
  readonly max: number;
  private readonly log: (line: string) => void;
  private readonly what: string;

  constructor(options: { max?: number; log: (line: string) => void; what?: string }) {
    this.max = options.max ?? 10_000;
    this.log = options.log;
    this.what = options.what ?? 'connection events';
  }

  get size(): number {
    return this.queue.length;
  }

  push(events: readonly GwEvent[]): void {
    for (const event of events) this.queue.push({ seq: ++this.seq, event });
    const over = this.queue.length - this.max;
    if (over > 0) {
      this.queue.splice(0, over);
      this.log(`${this.what}: ${over} dropped, the oldest (more than ${this.max} waiting for the server)`);
    }
  }

  /**
   * Posts everything waiting, a batch at a time, oldest first; answers how many the server took. A failure
   * keeps the batch and what follows it for the next flush and is thrown; a batch the server refuses for good
   * (a 4xx) is dropped with a log line.
   */
  async flush(post: (events: GwEvent[]) => Promise<unknown>): Promise<number> {
    let posted = 0;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, GW_EVENTS_MAX_BATCH);
      const last = batch[batch.length - 1].seq;
      try {
        await post(batch.map((entry) => entry.event));
        posted += batch.length;
      } catch (error) {
        if (!isRefused(error)) throw error;
        this.log(
          `${this.what}: the server refused ${batch.length} (${error instanceof Error ? error.message : error}); dropped`,
        );
      }
      // Pushes meanwhile may have dropped some of the batch already: remove by sequence, not by count.
      const kept = this.queue.findIndex((entry) => entry.seq > last);
      this.queue.splice(0, kept < 0 ? this.queue.length : kept);
    }
    return posted;
  }
}
