/**
 * Validators of spec §5, shared by the server and the web forms. Every function is pure and total: it never
 * throws, whatever the input, so a form can call it on each keystroke.
 */
import { z } from 'zod';
import { PORT_MAX, PORT_MIN } from './constants';
import { parseIpv4Cidr } from './ip';

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

/**
 * Form field: an IPv4 block `a.b.c.d/p` ({@link parseIpv4Cidr}); error key `validation.cidr`. IPv4 only, as the
 * spec's §5 block fields are; an IPv6 field would refine with `isCidr` of ./ip.
 */
export const Cidr = z.string().refine((s) => parseIpv4Cidr(s) !== null, { message: 'validation.cidr' });

/** Form field: an upload file name ending in `.txt` ({@link isTxtFileName}); error key `validation.txtFile`. */
export const TxtFileName = z.string().refine(isTxtFileName, { message: 'validation.txtFile' });
