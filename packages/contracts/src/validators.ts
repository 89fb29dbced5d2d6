/**
 * Validators of spec §5, shared by the server and the web forms. Every function is pure and total: it never
 * throws, whatever the input, so a form can call it on each keystroke.
 */
import { z } from 'zod';
import { PORT_MAX, PORT_MIN } from './constants';

// Canonical decimal integer: leading zeros are rejected so that "080" and "80" cannot both be stored for one port.
const PORT_NUMBER = /^[1-9]\d{0,4}$/;

function parsePortNumber(text: string): number | null {
  if (!PORT_NUMBER.test(text)) return null;
  const n = Number(text);
  return n >= PORT_MIN && n <= PORT_MAX ? n : null;
}

/**
 * Whether `value` is one port entry (spec §5): an integer 1..65535, or a range `a-b` with both ends in
 * 1..65535 and `a` strictly below `b`.
 *
 * Strict on purpose: no sign, decimals, leading zeros or whitespace anywhere; lists trim their items through
 * {@link isValidPortList}.
 *
 * @example isValidPort('443') // true
 * @example isValidPort('8000-8080') // true
 * @example isValidPort('80-80') // false: a range needs a < b
 */
export function isValidPort(value: string): boolean {
  if (typeof value !== 'string') return false;
  const parts = value.split('-');
  if (parts.length === 1) return parsePortNumber(parts[0]) !== null;
  if (parts.length !== 2) return false;
  const from = parsePortNumber(parts[0]);
  const to = parsePortNumber(parts[1]);
  return from !== null && to !== null && from < to;
}

/**
 * Whether `value` is a comma-separated list of port entries (spec §5): valid only if every trimmed item passes
 * {@link isValidPort}. An empty list, or an empty item (`"80,,443"`, `"80,"`), is invalid.
 */
export function isValidPortList(value: string): boolean {
  if (typeof value !== 'string') return false;
  return value.split(',').every((item) => isValidPort(item.trim()));
}

// One DNS label: 1..63 letters, digits or hyphens, neither starting nor ending with a hyphen.
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN_OR_URL = new RegExp(`^(?:https?://)?((?:${LABEL}\\.)+[a-z]{2,63})/?$`, 'i');
// RFC 1035 limit on a whole host name; longer names can never resolve, so they are not worth accepting.
const MAX_HOST_LENGTH = 253;

/**
 * Whether `value` is a domain or URL (spec §5): an optional `http://` or `https://` prefix, then dot-joined
 * labels of letters, digits and hyphens (1..63 characters, no leading or trailing hyphen), then a final label
 * of at least two letters, then an optional single trailing `/`. Case-insensitive. No port, path, query or
 * whitespace; at least one dot is required, so a bare `localhost` is rejected.
 *
 * @example isValidDomainOrUrl('https://Example.com/') // true
 * @example isValidDomainOrUrl('-bad.example.com') // false
 */
export function isValidDomainOrUrl(value: string): boolean {
  if (typeof value !== 'string') return false;
  const match = DOMAIN_OR_URL.exec(value);
  return match !== null && match[1].length <= MAX_HOST_LENGTH;
}

/**
 * Whether `name` is an acceptable upload file name (spec §5): it ends in `.txt` (any case) and the part before
 * the extension is not blank, so `.txt` and `  .txt` are rejected.
 */
export function isTxtFileName(name: string): boolean {
  if (typeof name !== 'string' || !/\.txt$/i.test(name)) return false;
  return name.slice(0, -4).trim().length > 0;
}

// "0" or 1..255 without leading zeros: "010" is octal in some parsers, so it is refused rather than guessed.
const OCTET = /^(?:0|[1-9]\d{0,2})$/;

/**
 * Parses a strict dotted-quad IPv4 address into its unsigned 32-bit value, or `null` when malformed.
 * Each of the four parts is 0..255 with no leading zeros (except `"0"` itself), no sign and no whitespace.
 *
 * @example parseIpv4('192.168.1.10') // 3232235786
 */
export function parseIpv4(s: string): number | null {
  if (typeof s !== 'string') return null;
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    // Multiplication rather than `<<` keeps the result unsigned above 127.255.255.255.
    value = value * 256 + octet;
  }
  return value;
}

/**
 * Renders an unsigned 32-bit value as a dotted quad; the inverse of {@link parseIpv4}.
 * Values outside 0..2^32-1 or non-integers are wrapped to 32 bits like the `>>> 0` operator does.
 */
export function formatIpv4(value: number): string {
  const n = value >>> 0;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The netmask of a prefix length 0..32 as an unsigned 32-bit value. */
function maskOf(prefix: number): number {
  // A shift by 32 is a shift by 0 in JavaScript, so /0 needs its own branch.
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

const PREFIX = /^(?:0|[1-9]\d?)$/;

/** A parsed IPv4 block: `network` is the unsigned base address with host bits cleared, `prefix` is 0..32. */
export interface ParsedCidr {
  network: number;
  prefix: number;
}

/**
 * Parses `a.b.c.d/p` (p in 0..32, no leading zeros) into its block, or `null` when malformed. Host bits set in
 * the address are cleared, so `10.1.2.3/8` parses to the block `10.0.0.0/8`: entries name the block they
 * belong to, and masking is the membership rule of spec §5. A bare address without `/p` is rejected.
 */
export function parseCidr(s: string): ParsedCidr | null {
  if (typeof s !== 'string') return null;
  const slash = s.indexOf('/');
  if (slash < 0) return null;
  const address = parseIpv4(s.slice(0, slash));
  const prefixText = s.slice(slash + 1);
  if (address === null || !PREFIX.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > 32) return null;
  return { network: (address & maskOf(prefix)) >>> 0, prefix };
}

/**
 * Whether the address `ip` belongs to the block `cidr` (spec §5): only if the address masked by the block's
 * prefix equals the block's network. Malformed input on either side is never a member.
 *
 * @example isIpInCidr('10.1.2.3', '10.0.0.0/8') // true
 */
export function isIpInCidr(ip: string, cidr: string): boolean {
  const address = parseIpv4(ip);
  const block = parseCidr(cidr);
  if (address === null || block === null) return false;
  return (address & maskOf(block.prefix)) >>> 0 === block.network;
}

/**
 * The address at `offset` within the block `cidr`, counting from the network address at offset 0, or `null`
 * when the block is malformed or the offset is not an integer in 0..2^(32-prefix)-1 (spec §5: an offset
 * beyond the block size is rejected).
 *
 * @example ipAtOffset('192.168.0.0/30', 3) // '192.168.0.3'
 * @example ipAtOffset('192.168.0.0/30', 4) // null
 */
export function ipAtOffset(cidr: string, offset: number): string | null {
  const block = parseCidr(cidr);
  if (block === null || !Number.isInteger(offset) || offset < 0) return null;
  const size = 2 ** (32 - block.prefix);
  if (offset >= size) return null;
  return formatIpv4(block.network + offset);
}

// Spec §5 lists the allowed ranges only as {ip}/8, {ip}/12, {ip}/16; these are the RFC 1918 blocks they denote.
const PRIVATE_BLOCKS: readonly ParsedCidr[] = [
  { network: 0x0a000000, prefix: 8 },
  { network: 0xac100000, prefix: 12 },
  { network: 0xc0a80000, prefix: 16 },
];

/**
 * Whether `cidr` lies entirely inside one of the allowed private ranges 10.0.0.0/8, 172.16.0.0/12 or
 * 192.168.0.0/16 (spec §5): its prefix is at least as long as the range's and its network falls in the range.
 *
 * @example isAllowedPrivateRange('172.20.0.0/16') // true
 * @example isAllowedPrivateRange('172.0.0.0/8') // false: wider than 172.16.0.0/12
 */
export function isAllowedPrivateRange(cidr: string): boolean {
  const block = parseCidr(cidr);
  if (block === null) return false;
  return PRIVATE_BLOCKS.some(
    (allowed) =>
      block.prefix >= allowed.prefix && (block.network & maskOf(allowed.prefix)) >>> 0 === allowed.network,
  );
}

/**
 * The items of `items` that occur more than once (spec §5), each reported once, in the order in which their
 * first repeat appears. Items are compared by `key` when given (e.g. a lower-cased name), else by identity
 * with `SameValueZero` (so `1` and `'1'` differ, `NaN` equals `NaN`). The reported item is the first
 * occurrence, so the caller can point at the original row.
 *
 * @example findDuplicates(['a', 'b', 'b', 'a', 'a']) // ['b', 'a']
 */
export function findDuplicates<T>(items: readonly T[], key?: (t: T) => string): T[] {
  const first = new Map<unknown, T>();
  const reported = new Set<unknown>();
  const duplicates: T[] = [];
  for (const item of items) {
    const k = key ? key(item) : item;
    const original = first.get(k);
    if (!first.has(k)) {
      first.set(k, item);
    } else if (!reported.has(k)) {
      reported.add(k);
      duplicates.push(original as T);
    }
  }
  return duplicates;
}

/** One ip/source conflict: the ip and the sources of its first entry and of the conflicting entry. */
export interface IpSourceConflict {
  ip: string;
  sources: [string, string];
}

/**
 * Conflicts among ip/source entries (spec §5, port-forward and IP lists): every entry whose ip was already used
 * by an earlier entry yields one conflict naming the ip and both sources, the first entry's source first.
 * Ips are compared after trimming, and reported trimmed; a third use of an ip yields a second conflict, again
 * against the first entry.
 *
 * @example findIpSourceConflicts([{ ip: '10.0.0.1', source: 'a' }, { ip: '10.0.0.1', source: 'b' }])
 * // [{ ip: '10.0.0.1', sources: ['a', 'b'] }]
 */
export function findIpSourceConflicts(
  entries: readonly { ip: string; source: string }[],
): IpSourceConflict[] {
  const firstSource = new Map<string, string>();
  const conflicts: IpSourceConflict[] = [];
  for (const { ip, source } of entries) {
    const key = ip.trim();
    const earlier = firstSource.get(key);
    if (earlier === undefined) firstSource.set(key, source);
    else conflicts.push({ ip: key, sources: [earlier, source] });
  }
  return conflicts;
}

/**
 * Whether `value` has trimmed length above zero (spec §5's definition of a non-empty string).
 * Narrows `value` to `string`.
 */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

const MESSAGE_KEYS = ['message', 'error', 'errorMessage'] as const;

/**
 * The field-error rule of spec §5: a field is in error when its error value is a non-empty string (an error
 * text), the flag `true`, or an object carrying a non-empty `message`, `error` or `errorMessage` string (an
 * `Error` instance qualifies). `null`, `undefined`, `''`, blank strings, `false`, numbers and objects without
 * such a message are not errors.
 */
export function hasFieldError(value: unknown): boolean {
  if (typeof value === 'string') return isNonEmptyString(value);
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return MESSAGE_KEYS.some((k) => isNonEmptyString(record[k]));
}

/** Form field: a comma-separated port list ({@link isValidPortList}); error key `validation.portList`. */
export const PortList = z.string().refine(isValidPortList, { message: 'validation.portList' });

/** Form field: a domain or URL ({@link isValidDomainOrUrl}); error key `validation.domain`. */
export const DomainOrUrl = z.string().refine(isValidDomainOrUrl, { message: 'validation.domain' });

/** Form field: an IPv4 block `a.b.c.d/p` ({@link parseCidr}); error key `validation.cidr`. */
export const Cidr = z.string().refine((s) => parseCidr(s) !== null, { message: 'validation.cidr' });

/** Form field: an upload file name ending in `.txt` ({@link isTxtFileName}); error key `validation.txtFile`. */
export const TxtFileName = z.string().refine(isTxtFileName, { message: 'validation.txtFile' });
