/**
 * IP addresses and CIDR blocks, IPv4 and IPv6: the one place that reads them, on `ipaddr.js`. Every other package
 * (server, web, policy engine, gateway configuration, gateway) takes addresses through these functions, so an
 * address means the same thing everywhere. Pure and total: nothing throws, whatever the input.
 *
 * Strict on purpose, stricter than `ipaddr.js` alone (whose `parse('010.1.1.1')` is `8.1.1.1`, octal):
 * - IPv4 is a dotted quad of decimals 0…255 without leading zeros. Octal (`010.1.1.1`), hex (`0x0a.1.1.1`),
 *   short forms (`1.2.3`, `167772161`), signs and whitespace are refused, never guessed.
 * - IPv6 is RFC 4291 text: hextets of 1…4 hex digits, at most one `::`, any case, optionally ending in a strict
 *   dotted quad (`::ffff:192.0.2.1`, which stays an IPv6 address: see {@link unmapIpv4}). Zone ids
 *   (`fe80::1%eth0`) and brackets (`[::1]`) are refused: no caller stores or compares them.
 * - Normalised text: IPv4 as written (a strict dotted quad has one form); IPv6 lower case, compressed as RFC 5952 says (the
 *   longest run of two or more zero hextets is `::`, the first on a tie), an embedded IPv4 part as two hextets
 *   (`::ffff:192.0.2.1` → `::ffff:c000:201`).
 * - A CIDR block is `address/prefix`, the prefix a decimal without leading zeros, 0…32 (IPv4) or 0…128 (IPv6).
 *   Host bits may be set (`10.1.2.3/8`, an interface address): the block is the network they belong to
 *   (`10.0.0.0/8`), and {@link IpCidr.host} keeps the address as written.
 *
 * Callers trim their input first where a form or file allows spaces. Fields that are IPv4-only by design (the
 * policy engine decides IPv4 destinations; site LANs, tunnel pools and nftables `ipv4_addr` sets are IPv4) check
 * the family ({@link isIpv4}, `family === 4`) and say so where they do.
 */
import ipaddr from 'ipaddr.js';

/** The version of an address: 4 or 6. */
export type IpFamily = 4 | 6;

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const BITS: Record<IpFamily, number> = { 4: 32, 6: 128 };

const V6_HEX = /^[0-9A-Fa-f:]{2,39}$/;
// Hextets, then an embedded dotted quad (read by the IPv4 scanner on its own, so its parts are strict too).
const V6_MIXED = /^([0-9A-Fa-f:]{1,29}:)([0-9.]{7,15})$/;
const PREFIX = /^(?:0|[1-9]\d{0,2})$/;

/**
 * A strict dotted quad as its unsigned value, or -1: four decimal parts 0…255 without leading zeros, nothing else.
 * Scanned over char codes, allocating nothing: the policy engine reads an address or two per decision. What it
 * accepts is exactly `ipaddr.IPv4.isValidFourPartDecimal` (and node:net's `isIPv4`), which the tests check.
 */
function v4Value(text: string): number {
  const n = text.length;
  if (n < 7 || n > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return -1;
      // Multiplication rather than `<<` keeps the result unsigned above 127.255.255.255.
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1; // a leading zero: octal in some parsers, refused
      part = part * 10 + (c - 48);
      digits++;
      if (part > 255) return -1;
    } else {
      return -1;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + part : -1;
}

const v4Octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

function readV4(text: string): ipaddr.IPv4 | null {
  const n = v4Value(text);
  return n < 0 ? null : new ipaddr.IPv4(v4Octets(n));
}

function readV6(text: string): ipaddr.IPv6 | null {
  let source = text;
  if (!V6_HEX.test(text)) {
    const m = V6_MIXED.exec(text);
    const v4 = m === null ? null : readV4(m[2]);
    if (m === null || v4 === null) return null;
    // The embedded IPv4 part as two hextets: ipaddr.js would read its parts leniently (hex, leading zeros), and
    // would turn `::a.b.c.d` (IPv4-compatible, ::102:304) into `::ffff:a.b.c.d` (IPv4-mapped).
    const [a, b, c, d] = v4.octets;
    source = `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  try {
    // Throws on more than one `::`, too many or too few hextets, or a hextet of more than four digits.
    return ipaddr.IPv6.parse(source);
  } catch {
    return null;
  }
}

/** The strict address of either family as an `ipaddr.js` object, or null. */
function read(text: unknown): Address | null {
  if (typeof text !== 'string') return null;
  return text.includes(':') ? readV6(text) : readV4(text);
}

const familyOf = (a: Address): IpFamily => (a.kind() === 'ipv4' ? 4 : 6);

/** The address with every bit past `prefix` cleared. */
function networkOf(a: Address, prefix: number): Address {
  const bytes = a.toByteArray();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    bytes[i] &= (0xff << (8 - keep)) & 0xff;
  }
  return ipaddr.fromByteArray(bytes);
}

/**
 * The address normalised (see the module comment: IPv4 without leading zeros, IPv6 lower case and RFC 5952
 * compressed), or null when `text` is not a strict IPv4 or IPv6 address.
 *
 * @example parseIp('2001:0DB8:0:0::1') // '2001:db8::1'
 * @example parseIp('010.1.1.1') // null: octal is refused
 */
export function parseIp(text: string): string | null {
  return read(text)?.toString() ?? null;
}

/** The family of an address (4 or 6), or null when `text` is not a strict address. */
export function ipFamily(text: string): IpFamily | null {
  const a = read(text);
  return a === null ? null : familyOf(a);
}

/** Whether `text` is a strict IPv4 or IPv6 address ({@link parseIp}). */
export function isIp(text: string): boolean {
  return read(text) !== null;
}

/** Whether `text` is a strict dotted-quad IPv4 address: `1.2.3.4`, not `01.2.3.4`, `1.2.3` or `::ffff:1.2.3.4`. */
export function isIpv4(text: string): boolean {
  return typeof text === 'string' && v4Value(text) >= 0;
}

/** Whether `text` is a strict IPv6 address, IPv4-mapped ones included; zone ids (`%eth0`) are refused. */
export function isIpv6(text: string): boolean {
  return typeof text === 'string' && text.includes(':') && readV6(text) !== null;
}

/**
 * The address normalised, an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports an
 * IPv4 peer) as its IPv4 address (`192.0.2.1`); null when `text` is not a strict address.
 */
export function unmapIpv4(text: string): string | null {
  const a = read(text);
  if (a === null) return null;
  return a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress() ? a.toIPv4Address().toString() : a.toString();
}

/**
 * The special-purpose range an address lies in, as `ipaddr.js` names them: `unicast` (none), `private`,
 * `loopback`, `linkLocal`, `uniqueLocal`, `multicast`, `reserved`, `carrierGradeNat`, `ipv4Mapped`, … ; null
 * when `text` is not a strict address. An IPv4-mapped address is `ipv4Mapped`; {@link unmapIpv4} it first to
 * ask about its IPv4 address.
 *
 * @example ipRange('127.0.0.1') // 'loopback'
 * @example ipRange('fd00::1') // 'uniqueLocal'
 */
export function ipRange(text: string): string | null {
  return read(text)?.range() ?? null;
}

/** An address as an unsigned integer (32 bits for IPv4, 128 for IPv6) with its family, or null. */
export function ipToBigInt(text: string): { family: IpFamily; value: bigint } | null {
  const a = read(text);
  if (a === null) return null;
  let value = 0n;
  for (const byte of a.toByteArray()) value = (value << 8n) | BigInt(byte);
  return { family: familyOf(a), value };
}

/**
 * The normalised text of the address `value` of `family` (the inverse of {@link ipToBigInt}); the value is
 * taken modulo 2^32 or 2^128.
 */
export function ipFromBigInt(family: IpFamily, value: bigint): string {
  const bytes: number[] = [];
  let v = BigInt.asUintN(BITS[family], value);
  for (let i = 0; i < BITS[family] / 8; i++) {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

// ─── IPv4 as numbers (range math of the IPv4-only fields and the policy engine) ─────────────────────────────

/**
 * A strict dotted-quad IPv4 address as its unsigned 32-bit value, or `null` ({@link isIpv4}'s acceptance).
 *
 * @example parseIpv4('192.168.1.10') // 3232235786
 */
export function parseIpv4(text: string): number | null {
  if (typeof text !== 'string') return null;
  const n = v4Value(text);
  return n < 0 ? null : n;
}

/**
 * Renders an unsigned 32-bit value as a dotted quad; the inverse of {@link parseIpv4}. Values outside
 * 0..2^32-1 or non-integers are wrapped to 32 bits like the `>>> 0` operator does.
 */
export function formatIpv4(value: number): string {
  return new ipaddr.IPv4(v4Octets(value >>> 0)).toString();
}

/** The netmask of an IPv4 prefix length 0..32 as an unsigned 32-bit value. */
export function ipv4Mask(prefix: number): number {
  // A shift by 32 is a shift by 0 in JavaScript, so /0 needs its own branch.
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** An IPv4 block as numbers: `network` is the unsigned base address with host bits cleared, `prefix` 0..32. */
export interface Ipv4Block {
  network: number;
  prefix: number;
}

/** The last address of an IPv4 block (its broadcast address), unsigned. */
export function ipv4BlockEnd(block: Ipv4Block): number {
  return (block.network | ~ipv4Mask(block.prefix)) >>> 0;
}

/**
 * Parses an IPv4 block `a.b.c.d/p` ({@link parseCidr}, IPv4 only) into numbers, or `null`. Host bits set in the
 * address are cleared, so `10.1.2.3/8` is the block `10.0.0.0/8`. A bare address without `/p` is refused.
 */
export function parseIpv4Cidr(text: string): Ipv4Block | null {
  const cidr = parseCidr(text);
  if (cidr === null || cidr.family !== 4) return null;
  return { network: parseIpv4(cidr.address) as number, prefix: cidr.prefix };
}

/** An IPv4 address (as a /32) or block ({@link parseIpOrCidr}, IPv4 only) as numbers, or `null`. */
export function parseIpv4OrCidr(text: string): Ipv4Block | null {
  const cidr = parseIpOrCidr(text);
  if (cidr === null || cidr.family !== 4) return null;
  return { network: parseIpv4(cidr.address) as number, prefix: cidr.prefix };
}

// ─── CIDR blocks ────────────────────────────────────────────────────────────────────────────────────────────

/** A parsed CIDR block of either family. */
export interface IpCidr {
  family: IpFamily;
  /** The network address, normalised, host bits cleared (`10.0.0.0` of `10.1.2.3/8`). */
  address: string;
  /** 0…32 for IPv4, 0…128 for IPv6. */
  prefix: number;
  /** The address as written, normalised, host bits kept: an interface address such as `10.1.2.3` of `10.1.2.3/8`. */
  host: string;
}

interface Block {
  family: IpFamily;
  network: Address;
  prefix: number;
  host: Address;
}

function readBlock(text: unknown, bareAddress: boolean): Block | null {
  if (typeof text !== 'string') return null;
  const slash = text.indexOf('/');
  if (slash < 0 && !bareAddress) return null;
  const host = read(slash < 0 ? text : text.slice(0, slash));
  if (host === null) return null;
  const family = familyOf(host);
  let prefix = BITS[family];
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!PREFIX.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > BITS[family]) return null;
  }
  return { family, network: networkOf(host, prefix), prefix, host };
}

const present = (b: Block | null): IpCidr | null =>
  b === null
    ? null
    : { family: b.family, address: b.network.toString(), prefix: b.prefix, host: b.host.toString() };

/**
 * Parses a CIDR block `address/prefix` of either family, or null: the prefix 0…32 or 0…128 without leading
 * zeros, host bits accepted and cleared in `address` (kept in `host`). A bare address is refused.
 *
 * @example parseCidr('10.1.2.3/8') // { family: 4, address: '10.0.0.0', prefix: 8, host: '10.1.2.3' }
 * @example parseCidr('FD00::1/64') // { family: 6, address: 'fd00::', prefix: 64, host: 'fd00::1' }
 * @example parseCidr('10.0.0.0/33') // null
 */
export function parseCidr(text: string): IpCidr | null {
  return present(readBlock(text, false));
}

/** Like {@link parseCidr}, but a bare address is accepted too, as its one-address block (`/32` or `/128`). */
export function parseIpOrCidr(text: string): IpCidr | null {
  return present(readBlock(text, true));
}

/** Whether `text` is a CIDR block ({@link parseCidr}) of either family. */
export function isCidr(text: string): boolean {
  return readBlock(text, false) !== null;
}

/**
 * Whether `text` is an address or a CIDR block ({@link parseIpOrCidr}); of `family` only when given.
 *
 * @example isIpOrCidr('fd00::/8') // true
 * @example isIpOrCidr('fd00::/8', 4) // false
 */
export function isIpOrCidr(text: string, family?: IpFamily): boolean {
  const b = readBlock(text, true);
  return b !== null && (family === undefined || b.family === family);
}

/**
 * A CIDR block in canonical form, `network/prefix` with host bits cleared and the prefix always written, or
 * null when `text` is not a CIDR block ({@link parseCidr}).
 *
 * @example normaliseCidr('10.99.0.7/24') // '10.99.0.0/24'
 * @example normaliseCidr('2001:DB8:1:2:AAAA::1/64') // '2001:db8:1:2::/64'
 */
export function normaliseCidr(text: string): string | null {
  const b = readBlock(text, false);
  return b === null ? null : `${b.network.toString()}/${b.prefix}`;
}

/**
 * Whether every address of `inner` lies in `outer`. Each is an address or a CIDR block (an address is its
 * one-address block), of either family; two families never contain each other (an IPv4-mapped IPv6 address is
 * not in an IPv4 block), and anything malformed is never inside.
 *
 * @example cidrContains('10.0.0.0/8', '10.1.2.3') // true
 * @example cidrContains('10.0.0.0/8', '10.0.0.0/7') // false
 * @example cidrContains('2001:db8::/32', '2001:DB8:1::/48') // true
 */
export function cidrContains(outer: string, inner: string): boolean {
  const o = readBlock(outer, true);
  const i = readBlock(inner, true);
  if (o === null || i === null || o.family !== i.family || o.prefix > i.prefix) return false;
  return i.network.match(o.network, o.prefix);
}

/**
 * Whether two addresses or CIDR blocks share an address (blocks nest or are disjoint, so one then contains the
 * other). Different families, or anything malformed, never overlap.
 *
 * @example cidrsOverlap('10.0.0.0/8', '10.20.0.0/16') // true
 * @example cidrsOverlap('fd00::/64', 'fd00:0:0:1::/64') // false
 */
export function cidrsOverlap(a: string, b: string): boolean {
  const x = readBlock(a, true);
  const y = readBlock(b, true);
  if (x === null || y === null || x.family !== y.family) return false;
  return x.network.match(y.network, Math.min(x.prefix, y.prefix));
}

/**
 * Whether the address `ip` belongs to the block `cidr` (spec §5): only if the address masked by the block's
 * prefix equals the block's network. `ip` must be a bare address and `cidr` a block; malformed input on either
 * side, or different families, is never a member.
 *
 * @example isIpInCidr('10.1.2.3', '10.0.0.0/8') // true
 */
export function isIpInCidr(ip: string, cidr: string): boolean {
  return isIp(ip) && isCidr(cidr) && cidrContains(cidr, ip);
}

/**
 * The address at `offset` within the IPv4 block `cidr`, counting from the network address at offset 0, or
 * `null` when the block is malformed or the offset is not an integer in 0..2^(32-prefix)-1 (spec §5: an offset
 * beyond the block size is rejected). IPv4 only: the spec's address pools are IPv4.
 *
 * @example ipAtOffset('192.168.0.0/30', 3) // '192.168.0.3'
 * @example ipAtOffset('192.168.0.0/30', 4) // null
 */
export function ipAtOffset(cidr: string, offset: number): string | null {
  const block = parseIpv4Cidr(cidr);
  if (block === null || !Number.isInteger(offset) || offset < 0) return null;
  const size = 2 ** (32 - block.prefix);
  if (offset >= size) return null;
  return formatIpv4(block.network + offset);
}

// Spec §5 lists the allowed ranges only as {ip}/8, {ip}/12, {ip}/16; these are the RFC 1918 blocks they denote.
const PRIVATE_BLOCKS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];

/**
 * Whether the IPv4 block `cidr` lies entirely inside one of the allowed private ranges 10.0.0.0/8, 172.16.0.0/12
 * or 192.168.0.0/16 (spec §5): its prefix is at least as long as the range's and its network falls in the range.
 * IPv4 only (site networks are IPv4); a bare address is refused.
 *
 * @example isAllowedPrivateRange('172.20.0.0/16') // true
 * @example isAllowedPrivateRange('172.0.0.0/8') // false: wider than 172.16.0.0/12
 */
export function isAllowedPrivateRange(cidr: string): boolean {
  return parseIpv4Cidr(cidr) !== null && PRIVATE_BLOCKS.some((range) => cidrContains(range, cidr));
}
