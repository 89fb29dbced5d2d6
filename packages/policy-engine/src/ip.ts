/**
 * The engine's IPv4 addresses: unsigned 32-bit numbers, `-1` for "unknown or malformed", so that matching a
 * block is one mask and one compare. Reading and printing them is the contracts' address helper (./ip there,
 * on ipaddr.js), as everywhere else. IPv4 only by design: the engine decides IPv4 destinations and sources; an
 * IPv6 address is -1 here (unknown), and an IPv6 block is no {@link Net}.
 */
import { formatIpv4, ipv4Mask, parseIpv4, parseIpv4OrCidr } from '@palisade/contracts';

/** A parsed IPv4 block. `network` has its host bits cleared; `mask` is the netmask as an unsigned number. */
export interface Net {
  network: number;
  prefix: number;
  mask: number;
  /** The entry as written (for traces and lint messages). */
  text: string;
}

/** The netmask of a prefix length 0..32 as an unsigned 32-bit value. */
export const maskOf = ipv4Mask;

/**
 * A strict dotted quad (the contracts' `parseIpv4`: 0..255 per part, no leading zeros, no sign or whitespace)
 * as its unsigned value, or -1.
 */
export function parseIp(s: string | null | undefined): number {
  return typeof s === 'string' ? (parseIpv4(s) ?? -1) : -1;
}

/**
 * Parses an IPv4 address (a /32) or a CIDR block `a.b.c.d/p` into a {@link Net}, or null. `*` is not a
 * network; callers treat it as "any" before calling this. Host bits set in a block are cleared.
 */
export function parseNet(text: string): Net | null {
  const s = text.trim();
  const block = parseIpv4OrCidr(s);
  return block === null ? null : { ...block, mask: ipv4Mask(block.prefix), text: s };
}

/** Whether the unsigned address `ip` lies in `net`. */
export function inNet(ip: number, net: Net): boolean {
  return (ip & net.mask) >>> 0 === net.network;
}

/** Whether block `outer` contains block `inner` entirely. */
export function netContains(outer: Net, inner: Net): boolean {
  return outer.prefix <= inner.prefix && (inner.network & outer.mask) >>> 0 === outer.network;
}

/** Renders an unsigned address as a dotted quad. */
export const formatIp = formatIpv4;
