/**
 * IPv4 helpers for the hot path: addresses are unsigned 32-bit numbers, `-1` means "unknown or malformed".
 * Parsing is done by hand over char codes so that a decision allocates nothing.
 */

/** A parsed IPv4 block. `network` has its host bits cleared; `mask` is the netmask as an unsigned number. */
export interface Net {
  network: number;
  prefix: number;
  mask: number;
  /** The entry as written (for traces and lint messages). */
  text: string;
}

/** The netmask of a prefix length 0..32 as an unsigned 32-bit value. */
export function maskOf(prefix: number): number {
  // A shift by 32 is a shift by 0 in JavaScript, so /0 needs its own branch.
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/**
 * Parses a strict dotted quad (0..255 per part, no leading zeros, no sign or whitespace) into its unsigned
 * value, or -1. Same acceptance as `parseIpv4` of the contracts, without allocating.
 */
export function parseIp(s: string | null | undefined): number {
  if (typeof s !== 'string') return -1;
  const n = s.length;
  if (n < 7 || n > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (digits === 0) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
      if (dots > 3) return -1;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1; // leading zero
      part = part * 10 + (c - 48);
      digits++;
      if (part > 255) return -1;
    } else {
      return -1;
    }
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + part;
}

/**
 * Parses an IPv4 address (a /32) or a CIDR block `a.b.c.d/p` into a {@link Net}, or null. `*` is not a
 * network; callers treat it as "any" before calling this. Host bits set in a block are cleared.
 */
export function parseNet(text: string): Net | null {
  const s = text.trim();
  const slash = s.indexOf('/');
  if (slash < 0) {
    const ip = parseIp(s);
    return ip < 0 ? null : { network: ip, prefix: 32, mask: 0xffffffff, text: s };
  }
  const ip = parseIp(s.slice(0, slash));
  const prefixText = s.slice(slash + 1);
  if (ip < 0 || !/^(?:0|[1-9]\d?)$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > 32) return null;
  const mask = maskOf(prefix);
  return { network: (ip & mask) >>> 0, prefix, mask, text: s };
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
export function formatIp(value: number): string {
  const n = value >>> 0;
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}
