/**
 * Address helpers for the artefacts: IPv4 and IPv6 addresses, CIDR blocks and ranges as bigints, merged into
 * the fewest intervals (nftables interval sets refuse overlapping elements) and printed canonically (RFC 5952
 * for IPv6). Strict parsing: anything that is not an address is refused, so nothing else reaches a config file.
 * Addresses are read and printed by the contracts' one address helper (./ip there, on ipaddr.js); the intervals
 * and their merging, which only the artefacts need, are here.
 */
import { type IpFamily, ipFromBigInt, ipToBigInt, parseIpOrCidr } from '@palisade/contracts';

export type Family = IpFamily;

/** An inclusive interval of addresses of one family. */
export interface Interval {
  family: Family;
  first: bigint;
  last: bigint;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

/**
 * A strict address of either family (the contracts' address helper: no zone index, no brackets, no octal or
 * short IPv4 forms) as a number, or null.
 */
export function parseAddress(text: string): { family: Family; value: bigint } | null {
  return ipToBigInt(text);
}

export interface Block {
  family: Family;
  /** The network address (host bits cleared). */
  network: bigint;
  prefix: number;
  /** The address as written, when it had host bits set (an interface address such as 10.0.0.1/24). */
  address: bigint;
}

/** `address` or `address/prefix` of either family (trimmed); null when malformed. */
export function parseBlock(text: string): Block | null {
  if (typeof text !== 'string') return null;
  const b = parseIpOrCidr(text.trim());
  if (b === null) return null;
  const network = ipToBigInt(b.address) as { value: bigint };
  const address = ipToBigInt(b.host) as { value: bigint };
  return { family: b.family, network: network.value, prefix: b.prefix, address: address.value };
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

/** An address printed canonically (IPv6 as RFC 5952 says), through the contracts' address helper. */
export function formatAddress(family: Family, value: bigint): string {
  return ipFromBigInt(family, value);
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
