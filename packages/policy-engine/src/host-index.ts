/**
 * The host index: every domain of every domain or URL rule, with the rules filed under it per layer, in
 * flat typed arrays. A decision looks a host up by all its label suffixes in ONE right-to-left pass over its
 * characters — the hash of each suffix falls out of the pass, so no substring is allocated and nothing is
 * hashed twice — in an open-addressing table. A hash match is confirmed by comparing the key with the
 * host's tail, so matching stays exact.
 *
 * Each slot is one 32-byte record, so the probe that finds a domain also brings what a decision needs about
 * it into the cache: [hash, key index + 1, first rule per layer × 4, flags, unused]. "First rule" is the
 * smallest ordinal filed under the domain in that layer, times two, plus one when that rule decides on a
 * matcher hit alone (see CompiledPolicy.simple); -1 when none. Flags: bit L — more rules in layer L than
 * the first (look at `domainOrdinals`); bit 4 + L — URL rules in layer L; bits 8.. — the key's length,
 * so only a probe with the right hash and length compares strings.
 */

/** Layers per key (dns, network, http, qos). */
const LAYERS = 4;
/** Int32 fields per slot record. */
export const SLOT = 8;
export const SLOT_KEY = 1;
export const SLOT_FIRST = 2;
export const SLOT_FLAGS = 6;
export const FLAG_MORE = 1;
export const FLAG_URL = 16;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;
/** Longest host is 253 characters: at most 127 labels. */
export const MAX_LABELS = 128;

/** Hash of `s`, characters taken from the last to the first (the order the host walk sees them). */
export function suffixHash(s: string): number {
  let h = FNV_OFFSET;
  for (let i = s.length - 1; i >= 0; i--) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

function slotOf(h: number, mask: number): number {
  return (h ^ (h >>> 15)) & mask;
}

/**
 * What is filed under one domain while compiling: domain rules as `ordinal * 4 + layer` (ascending per
 * layer), URL rules with their path prefix.
 */
export interface HostRows {
  domains: number[];
  urls: { layer: number; ordinal: number; prefix: string }[] | null;
}

export class HostIndex {
  readonly size: number;
  /** Per (key × 4 + layer): start of its ordinals in `domainOrdinals`; one more entry closes the last. */
  readonly domainStart: Int32Array;
  readonly domainOrdinals: Int32Array;
  /** The same for URL rules: (ordinal, path prefix) pairs sorted by ordinal. */
  readonly urlStart: Int32Array;
  readonly urlOrdinals: Int32Array;
  readonly urlPrefixes: readonly string[];
  /** Slot records (see above); key index + 1 of 0 marks an empty slot. */
  readonly slots: Int32Array;
  private readonly keys: string[];
  private readonly mask: number;

  /** `simple[o]` is 1 when rule `o` decides on a matcher hit alone. */
  constructor(rows: ReadonlyMap<string, HostRows>, simple: Uint8Array) {
    const n = rows.size;
    this.size = n;
    let capacity = 16;
    while (capacity < n * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * SLOT);
    this.keys = [];
    this.domainStart = new Int32Array(n * LAYERS + 1);
    this.urlStart = new Int32Array(n * LAYERS + 1);
    let domainCount = 0;
    let urlCount = 0;
    for (const r of rows.values()) {
      domainCount += r.domains.length;
      urlCount += r.urls?.length ?? 0;
    }
    this.domainOrdinals = new Int32Array(domainCount);
    this.urlOrdinals = new Int32Array(urlCount);
    const prefixes: string[] = [];
    let d = 0;
    let u = 0;
    for (const [key, r] of rows) {
      const index = this.keys.length;
      this.keys.push(key);
      const h = suffixHash(key);
      let slot = slotOf(h, this.mask);
      while (this.slots[slot * SLOT + SLOT_KEY] !== 0) slot = (slot + 1) & this.mask;
      const base = slot * SLOT;
      this.slots[base] = h;
      this.slots[base + SLOT_KEY] = index + 1;
      let flags = key.length << 8;
      for (let l = 0; l < LAYERS; l++) {
        const start = d;
        this.domainStart[index * LAYERS + l] = start;
        for (const e of r.domains) if ((e & 3) === l) this.domainOrdinals[d++] = e >>> 2;
        const first = this.domainOrdinals[start];
        this.slots[base + SLOT_FIRST + l] = d === start ? -1 : first * 2 + simple[first];
        if (d - start > 1) flags |= FLAG_MORE << l;
        this.urlStart[index * LAYERS + l] = u;
        if (r.urls === null) continue;
        const urls = r.urls.filter((x) => x.layer === l).sort((a, b) => a.ordinal - b.ordinal);
        if (urls.length > 0) flags |= FLAG_URL << l;
        for (const x of urls) {
          this.urlOrdinals[u++] = x.ordinal;
          prefixes.push(x.prefix);
        }
      }
      this.slots[base + SLOT_FLAGS] = flags;
    }
    this.domainStart[n * LAYERS] = d;
    this.urlStart[n * LAYERS] = u;
    this.urlPrefixes = prefixes;
    Object.freeze(this);
  }

  /** The index of exactly `key`, or -1. */
  indexOf(key: string): number {
    const h = suffixHash(key);
    const { slots, mask } = this;
    for (let slot = slotOf(h, mask); slots[slot * SLOT + SLOT_KEY] !== 0; slot = (slot + 1) & mask) {
      const index = slots[slot * SLOT + SLOT_KEY] - 1;
      if (slots[slot * SLOT] === h && this.keys[index] === key) return index;
    }
    return -1;
  }

  /**
   * Writes into `out` the slot record offsets of every key that is `host` or a label suffix of it
   * (`a.example.com` → `com`, `example.com`, `a.example.com`: shortest first) and returns how many. Unless
   * `lowered`, returns -1 when the host has a character lower-casing might change (A-Z, non-ASCII): the
   * caller lower-cases it and asks again with `lowered`.
   * `out` must have room for every label (`(host.length + 1) / 2`).
   *
   * One `charCodeAt` per character and one `startsWith` per candidate: string methods are looked up on
   * String.prototype, which a `class … extends String` anywhere in the process (ioredis has one) turns into
   * a slow dictionary-mode object for the rest of its life, making every such call cost a hash lookup.
   */
  collect(host: string, out: Int32Array, lowered: boolean): number {
    let n = 0;
    const length = host.length;
    let h = FNV_OFFSET;
    for (let i = length - 1; i >= 0; i--) {
      const c = host.charCodeAt(i);
      if (c === 46) {
        // host[i + 1 ..] is a complete label suffix and `h` its hash.
        if (i + 1 < length) n = this.probe(host, i + 1, h, out, n);
      } else if (((c >= 65 && c <= 90) || c > 127) && !lowered) return -1;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    return length > 0 ? this.probe(host, 0, h, out, n) : n;
  }

  private probe(host: string, start: number, h: number, out: Int32Array, n: number): number {
    const { slots, mask, keys } = this;
    const length = host.length - start;
    for (let slot = slotOf(h, mask); ; slot = (slot + 1) & mask) {
      const base = slot * SLOT;
      const k = slots[base + SLOT_KEY];
      if (k === 0) return n;
      if (
        slots[base] === h &&
        slots[base + SLOT_FLAGS] >>> 8 === length &&
        host.startsWith(keys[k - 1], start)
      ) {
        out[n] = base;
        return n + 1;
      }
    }
  }
}
