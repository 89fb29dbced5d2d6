/**
 * Address helpers for the artefacts: IPv4 and IPv6 addresses, CIDR blocks and ranges as bigints, merged into
 * the fewest intervals (nftables interval sets refuse overlapping elements) and printed canonically (RFC 5952
 * for IPv6). Strict parsing: anything that is not an address is refused, so nothing else reaches a config file.
 */

export type Family = 4 | 6;

/** An inclusive interval of addresses of one family. */
export interface Interval {
  family: Family;
  first: bigint;
  last: bigint;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

const V4_PART = /^(?:0|[1-9]\d{0,2})$/;

function parseV4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!V4_PART.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    v = v * 256n + BigInt(n);
  }
  return v;
}

const HEXTET = /^[0-9a-fA-F]{1,4}$/;

function parseV6(s: string): bigint | null {
  if (s.length < 2 || s.length > 45) return null;
  let text = s;
  // An embedded IPv4 address in the last 32 bits (::ffff:1.2.3.4) becomes two hextets.
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) > lastColon) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const read = (h: string): bigint[] | null => {
    if (h === '') return [];
    const out: bigint[] = [];
    for (const g of h.split(':')) {
      if (!HEXTET.test(g)) return null;
      out.push(BigInt(`0x${g}`));
    }
    return out;
  };
  const head = read(halves[0]);
  const rest = halves.length === 2 ? read(halves[1]) : [];
  if (head === null || rest === null) return null;
  let groups: bigint[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<bigint>(missing).fill(0n), ...rest];
  } else {
    if (head.length !== 8) return null;
    groups = head;
  }
  let v = 0n;
  for (const g of groups) v = (v << 16n) | g;
  return v;
}

/** A strict address of either family (no zone index, no brackets), or null. */
export function parseAddress(text: string): { family: Family; value: bigint } | null {
  if (typeof text !== 'string') return null;
  if (text.includes(':')) {
    const v = parseV6(text);
    return v === null ? null : { family: 6, value: v };
  }
  const v = parseV4(text);
  return v === null ? null : { family: 4, value: v };
}

export interface Block {
  family: Family;
  /** The network address (host bits cleared). */
  network: bigint;
  prefix: number;
  /** The address as written, when it had host bits set (an interface address such as 10.0.0.1/24). */
  address: bigint;
}

/** `address` or `address/prefix` of either family; null when malformed. */
export function parseBlock(text: string): Block | null {
  if (typeof text !== 'string') return null;
  const s = text.trim();
  const slash = s.indexOf('/');
  const a = parseAddress(slash < 0 ? s : s.slice(0, slash));
  if (a === null) return null;
  const bits = BITS[a.family];
  let prefix = bits;
  if (slash >= 0) {
    const p = s.slice(slash + 1);
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p)) return null;
    prefix = Number(p);
    if (prefix > bits) return null;
  }
  const mask = maskOf(a.family, prefix);
  return { family: a.family, network: a.value & mask, prefix, address: a.value };
}

function maskOf(family: Family, prefix: number): bigint {
  const bits = BigInt(BITS[family]);
  const all = (1n << bits) - 1n;
  return prefix === 0 ? 0n : (all >> BigInt(BITS[family] - prefix)) << BigInt(BITS[family] - prefix);
}

export function blockInterval(b: Block): Interval {
  const size = 1n << BigInt(BITS[b.family] - b.prefix);
  return { family: b.family, first: b.network, last: b.network + size - 1n };
}

/** `a.b.c.d-e.f.g.h` (either family), a block or an address; null when malformed or reversed. */
export function parseInterval(text: string): Interval | null {
  const s = typeof text === 'string' ? text.trim() : '';
  const dash = s.indexOf('-');
  if (dash < 0) {
    const b = parseBlock(s);
    return b === null ? null : blockInterval(b);
  }
  const a = parseAddress(s.slice(0, dash).trim());
  const z = parseAddress(s.slice(dash + 1).trim());
  if (a === null || z === null || a.family !== z.family || a.value > z.value) return null;
  return { family: a.family, first: a.value, last: z.value };
}

/** Sorted, overlapping and adjacent intervals merged: the canonical content of an nftables interval set. */
export function mergeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = [...list].sort((x, y) =>
    x.family !== y.family ? x.family - y.family : x.first < y.first ? -1 : x.first > y.first ? 1 : 0,
  );
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && last.family === i.family && i.first <= last.last + 1n) {
      if (i.last > last.last) last.last = i.last;
    } else out.push({ ...i });
  }
  return out;
}

export function formatAddress(family: Family, value: bigint): string {
  if (family === 4) {
    const n = Number(value);
    return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  // RFC 5952: the longest run of two or more zero groups becomes `::` (the first one on a tie).
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  if (bestAt < 0) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLen))}`;
}

export function formatBlock(b: { family: Family; network: bigint; prefix: number }): string {
  const a = formatAddress(b.family, b.network);
  return b.prefix === BITS[b.family] ? a : `${a}/${b.prefix}`;
}

/** An interval as an nftables set element: an address, a CIDR block when it is exactly one, else `a-b`. */
export function formatInterval(i: Interval): string {
  const bits = BITS[i.family];
  const size = i.last - i.first + 1n;
  // A power of two, aligned on its size: a block.
  if ((size & (size - 1n)) === 0n && i.first % size === 0n) {
    const prefix = bits - (size.toString(2).length - 1);
    return formatBlock({ family: i.family, network: i.first, prefix });
  }
  return `${formatAddress(i.family, i.first)}-${formatAddress(i.family, i.last)}`;
}

/** Whether `ip` (either family) lies in the interval (for the test evaluators). */
export function inInterval(ip: string, i: Interval): boolean {
  const a = parseAddress(ip);
  return a !== null && a.family === i.family && a.value >= i.first && a.value <= i.last;
}
