import { cpus, freemem, totalmem, uptime } from 'node:os';
import { type GatewayMetrics, type GwHeartbeat, PEER_ACTIVE_MS } from '@palisade/contracts';

/** A peer with a handshake in the last 3 minutes counts as active (WireGuard re-keys every 2). */
export const ACTIVE_MS = PEER_ACTIVE_MS;

type Peer = GwHeartbeat['peers'][number];

/** A peer line of `wg show <interface> dump`, every column the gateway uses. */
export interface DumpPeer extends Peer {
  /** Where its packets last came from (`198.51.100.7:51820`); null before it sent any. */
  endpoint: string | null;
  /** Its AllowedIPs as the interface has them (`100.64.0.2/32`). */
  allowedIps: string[];
}

/**
 * The peers of `wg show <interface> dump` (the first line is the interface itself; a peer's columns are public
 * key, preshared key, endpoint, allowed ips, latest handshake, rx, tx, keepalive; `(none)` when unset).
 */
export function parseWgDumpPeers(dump: string): DumpPeer[] {
  return dump
    .trim()
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [publicKey, , endpoint, allowed, handshake, rx, tx] = line.split('\t');
      const seconds = Number(handshake);
      return {
        publicKey,
        lastHandshakeAt: seconds > 0 ? new Date(seconds * 1000).toISOString() : null,
        rxBytes: Number(rx) || 0,
        txBytes: Number(tx) || 0,
        endpoint: endpoint && endpoint !== '(none)' ? endpoint : null,
        allowedIps:
          allowed && allowed !== '(none)'
            ? allowed
                .split(',')
                .map((a) => a.trim())
                .filter(Boolean)
            : [],
      };
    });
}

/** The peers of `wg show <interface> dump` as a heartbeat reports them. */
export function parseWgDump(dump: string): Peer[] {
  return parseWgDumpPeers(dump).map(({ publicKey, lastHandshakeAt, rxBytes, txBytes }) => ({
    publicKey,
    lastHandshakeAt,
    rxBytes,
    txBytes,
  }));
}

function cpuTotals() {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { idle, total };
}

const clampPercent = (value: number) => Math.min(100, Math.max(0, Math.round(value * 10) / 10));

/** The load a heartbeat reports: CPU since the last sample, memory, uptime, and the tunnel's traffic and peers. */
export class MetricsSampler {
  private cpu = cpuTotals();
  private bytes: { at: number; total: number } | null = null;

  /** `dump`: `wg show <interface> dump` when the interface is up, else null (throughput and peers are zero). */
  sample(dump: string | null, now = Date.now()): { metrics: GatewayMetrics; peers: Peer[] } {
    const cpu = cpuTotals();
    const spent = cpu.total - this.cpu.total;
    const cpuPercent = spent > 0 ? clampPercent(100 * (1 - (cpu.idle - this.cpu.idle) / spent)) : 0;
    this.cpu = cpu;
    const peers = dump ? parseWgDump(dump) : [];
    const total = peers.reduce((sum, p) => sum + p.rxBytes + p.txBytes, 0);
    let throughputBps = 0;
    if (this.bytes && now > this.bytes.at && total >= this.bytes.total) {
      throughputBps = Math.round(((total - this.bytes.total) * 1000) / (now - this.bytes.at));
    }
    this.bytes = { at: now, total };
    const activePeers = peers.filter(
      (p) => p.lastHandshakeAt !== null && now - Date.parse(p.lastHandshakeAt) <= ACTIVE_MS,
    ).length;
    return {
      metrics: {
        cpuPercent,
        memoryPercent: clampPercent(100 * (1 - freemem() / totalmem())),
        throughputBps,
        uptimeSeconds: Math.max(0, Math.floor(uptime())),
        activePeers,
        // Each device is one peer: the users connected are the active peers.
        connectedUsers: activePeers,
      },
      peers,
    };
  }
}
