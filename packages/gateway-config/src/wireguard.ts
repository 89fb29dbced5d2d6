/**
 * The gateway's WireGuard interface in wg-quick format. The server never holds the gateway's private key: the
 * `PrivateKey` line is left out (the gateway sets it with `wg set <if> private-key <file>`, or through the
 * `PostUp` line `privateKeyFile` adds), or written as {@link PRIVATE_KEY_PLACEHOLDER} for the gateway to replace.
 */
import { commentText, GatewayConfigError } from './common';
import { type Block, formatAddress, formatBlock, parseBlock } from './net';

/** What `privateKeyPlaceholder: true` writes as the private key; the gateway substitutes its own key. */
export const PRIVATE_KEY_PLACEHOLDER = '@PALISADE_GATEWAY_PRIVATE_KEY@';

export interface WireguardPeer {
  /** Base64 of a 32-byte Curve25519 public key. */
  publicKey: string;
  /** Tunnel addresses routed to the peer: addresses or CIDR blocks, IPv4 or IPv6 (host bits are cleared). */
  allowedIps: readonly string[];
  /** A device or site name, written as a comment. */
  name?: string;
  /** `host:port` where the peer is reached: an IPv4 address, `[IPv6]` or a host name. */
  endpoint?: string;
  /** Seconds, 0 (off) … 65535. */
  persistentKeepalive?: number;
}

export interface WireguardOptions {
  /** The interface's own tunnel address(es) with their prefix (`10.64.0.1/16`), IPv4 or IPv6. */
  address: string | readonly string[];
  /** The port it listens on; left out for a client (a device), which picks its own. */
  listenPort?: number;
  /** Resolvers for wg-quick's `DNS =` (a device using its gateway's resolver); IPv4 or IPv6 addresses. */
  dns?: readonly string[];
  peers: readonly WireguardPeer[];
  /** Write `PrivateKey = @PALISADE_GATEWAY_PRIVATE_KEY@` for the gateway to fill in (default: no line). */
  privateKeyPlaceholder?: boolean;
  /** Absolute path of the key file on the gateway: adds `PostUp = wg set %i private-key <file>`. */
  privateKeyFile?: string;
}

/** Base64 of exactly 32 bytes: 43 characters, the last of which carries only 4 bits, then `=`. */
const KEY = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
const HOST =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const KEY_FILE = /^\/[A-Za-z0-9._/-]{1,200}$/;

function port(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 65535) {
    throw new GatewayConfigError('invalid-port', field, `${field} must be an integer ${min}…65535`);
  }
  return value;
}

function block(text: unknown, field: string): Block {
  const b = typeof text === 'string' ? parseBlock(text) : null;
  if (b === null || (typeof text === 'string' && text.trim() !== text)) {
    throw new GatewayConfigError('invalid-address', field, `${field}: not an address or CIDR block`);
  }
  return b;
}

function endpoint(text: unknown, field: string): string {
  const s = typeof text === 'string' ? text : '';
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(s);
  const fail = () => new GatewayConfigError('invalid-endpoint', field, `${field}: expected host:port`);
  if (!m) throw fail();
  port(Number(m[3]), field, 1);
  if (m[1] !== undefined) {
    const b = parseBlock(m[1]);
    if (b === null || b.family !== 6 || m[1].includes('/')) throw fail();
    return `[${formatAddress(6, b.address)}]:${Number(m[3])}`;
  }
  const host = m[2];
  const b = /^[\d.]+$/.test(host) ? parseBlock(host) : null;
  if (b !== null && b.family === 4) return `${formatAddress(4, b.address)}:${Number(m[3])}`;
  if (/^[\d.]+$/.test(host) || !HOST.test(host)) throw fail();
  return `${host.toLowerCase()}:${Number(m[3])}`;
}

/**
 * A wg-quick configuration: `[Interface]` with Address and ListenPort (and no private key, see above), then one
 * `[Peer]` per device or site, sorted by public key, each with its AllowedIPs (canonical, sorted, deduplicated).
 * Throws {@link GatewayConfigError} on a malformed key, address, port or endpoint, on a public key given twice,
 * and on a block given to two peers (WireGuard would silently move it to the last one).
 */
export function wireguardConfig(options: WireguardOptions): string {
  const addresses = (typeof options.address === 'string' ? [options.address] : [...options.address]).map(
    (a, i) => {
      const b = block(a, `address[${i}]`);
      return `${formatAddress(b.family, b.address)}/${b.prefix}`;
    },
  );
  if (addresses.length === 0)
    throw new GatewayConfigError('invalid-address', 'address', 'address is required');
  const listenPort = options.listenPort === undefined ? undefined : port(options.listenPort, 'listenPort', 1);
  const dns = (options.dns ?? []).map((a, i) => {
    const b = block(a, `dns[${i}]`);
    if (b.prefix !== (b.family === 4 ? 32 : 128) || a.includes('/')) {
      throw new GatewayConfigError('invalid-address', `dns[${i}]`, `dns[${i}]: an address, not a block`);
    }
    return formatAddress(b.family, b.address);
  });
  if (options.privateKeyFile !== undefined && !KEY_FILE.test(options.privateKeyFile)) {
    throw new GatewayConfigError('invalid-option', 'privateKeyFile', 'privateKeyFile: an absolute path');
  }

  const owners = new Map<string, number>();
  const keys = new Set<string>();
  const peers = options.peers.map((p, i) => {
    const field = `peers[${i}]`;
    if (typeof p.publicKey !== 'string' || !KEY.test(p.publicKey)) {
      throw new GatewayConfigError(
        'invalid-key',
        `${field}.publicKey`,
        `${field}.publicKey: not a WireGuard key`,
      );
    }
    if (keys.has(p.publicKey)) {
      throw new GatewayConfigError(
        'duplicate-peer',
        `${field}.publicKey`,
        `${field}: public key given twice`,
      );
    }
    keys.add(p.publicKey);
    const allowed = [
      ...new Set(p.allowedIps.map((a, j) => formatBlock(block(a, `${field}.allowedIps[${j}]`)))),
    ];
    for (const a of allowed) {
      const other = owners.get(a);
      if (other !== undefined) {
        throw new GatewayConfigError(
          'duplicate-allowed-ip',
          `${field}.allowedIps`,
          `${field}: ${a} is already routed to peers[${other}]`,
        );
      }
      owners.set(a, i);
    }
    allowed.sort((x, y) => {
      const bx = parseBlock(x)!;
      const by = parseBlock(y)!;
      if (bx.family !== by.family) return bx.family - by.family;
      if (bx.network !== by.network) return bx.network < by.network ? -1 : 1;
      return bx.prefix - by.prefix;
    });
    const keepalive =
      p.persistentKeepalive === undefined
        ? undefined
        : port(p.persistentKeepalive, `${field}.persistentKeepalive`, 0);
    return {
      publicKey: p.publicKey,
      allowed,
      name: p.name === undefined ? undefined : commentText(p.name),
      endpoint: p.endpoint === undefined ? undefined : endpoint(p.endpoint, `${field}.endpoint`),
      keepalive,
    };
  });
  peers.sort((a, b) => (a.publicKey < b.publicKey ? -1 : a.publicKey > b.publicKey ? 1 : 0));

  const lines = [
    '# Palisade gateway tunnel (wg-quick). Generated from the tenant configuration: do not edit.',
    '[Interface]',
    `Address = ${addresses.join(', ')}`,
  ];
  if (listenPort !== undefined) lines.push(`ListenPort = ${listenPort}`);
  if (dns.length > 0) lines.push(`DNS = ${dns.join(', ')}`);
  if (options.privateKeyPlaceholder) {
    lines.push('# The key holder replaces the placeholder with its own key: the server never has it.');
    lines.push(`PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`);
  } else {
    lines.push('# No PrivateKey: the gateway sets its own (wg set <interface> private-key <file>).');
  }
  if (options.privateKeyFile !== undefined)
    lines.push(`PostUp = wg set %i private-key ${options.privateKeyFile}`);
  for (const p of peers) {
    lines.push('');
    if (p.name) lines.push(`# ${p.name}`);
    lines.push('[Peer]', `PublicKey = ${p.publicKey}`);
    // A peer without AllowedIPs gets no traffic (and wg refuses an empty list): no line.
    if (p.allowed.length > 0) lines.push(`AllowedIPs = ${p.allowed.join(', ')}`);
    if (p.endpoint) lines.push(`Endpoint = ${p.endpoint}`);
    if (p.keepalive !== undefined) lines.push(`PersistentKeepalive = ${p.keepalive}`);
  }
  return `${lines.join('\n')}\n`;
}
