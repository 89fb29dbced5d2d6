import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  cidrContains,
  type FeedKind,
  formatIpv4,
  ipRange,
  ipv4Mask,
  isIpInCidr,
  isIpv4,
  MAX_FEED_BYTES,
  type MaliciousIp,
  parseFeedText,
  parseIpv4OrCidr,
  unmapIpv4,
} from '@palisade/contracts';
import { Agent, fetch } from 'undici';
import type { Tx } from '../../db/client';
import { isSpecialPurposeIpv4 } from '../policy-core/geoip';
import { BUILTIN_FEEDS } from './data/feeds';
import * as repo from './policy-objects.repository';

/** A feed as the module works with it: built-in feeds merged with their stored state, or a tenant's row. */
export interface FeedState {
  id: string;
  name: string;
  kind: FeedKind;
  url: string | null;
  fileName: string | null;
  refreshMinutes: number | null;
  enabled: boolean;
  ips: readonly string[];
  domains: readonly string[];
  lastRefreshedAt: Date | null;
  lastError: string | null;
}

/**
 * Every feed of the tenant: built-in feeds first (entries from code, enabled state from their row, or the
 * shipped default when the tenant has never changed it), then uploaded and URL feeds by name.
 */
export async function allFeeds(tx: Tx, tenantId: string): Promise<FeedState[]> {
  const rows = await repo.listFeedRows(tx, tenantId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const builtins: FeedState[] = BUILTIN_FEEDS.map((feed) => {
    const row = byId.get(feed.id);
    return {
      id: feed.id,
      name: feed.name,
      kind: 'builtin',
      url: null,
      fileName: null,
      refreshMinutes: null,
      enabled: row ? row.enabled : feed.enabledByDefault,
      ips: feed.ips,
      domains: feed.domains,
      lastRefreshedAt: null,
      lastError: null,
    };
  });
  const own: FeedState[] = rows
    .filter((r) => r.kind !== 'builtin')
    .map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      url: r.url,
      fileName: r.fileName,
      refreshMinutes: r.refreshMinutes,
      enabled: r.enabled,
      ips: r.ips,
      domains: r.domains,
      lastRefreshedAt: r.lastRefreshedAt,
      lastError: r.lastError,
    }));
  return [...builtins, ...own];
}

// ---- Fetching URL feeds ------------------------------------------------------------------------------

export const FEED_FETCH_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 3;

let allowPrivateNetworks = false;
/** Whether feeds may be fetched from private and other special-purpose addresses (config, set at start). */
export function setFeedPrivateNetworks(allow: boolean): void {
  allowPrivateNetworks = allow;
}

/**
 * Whether an address is private, loopback, link-local or otherwise special: IPv4 by the special-purpose blocks,
 * an IPv4-mapped IPv6 address as its IPv4 address, other IPv6 anything but global unicast (2000::/3 outside the
 * special-purpose ranges: documentation, Teredo, 6to4, ORCHID…). Not an address at all: special (refused).
 */
function isSpecialAddress(address: string): boolean {
  const ip = unmapIpv4(address);
  if (ip === null) return true;
  if (isIpv4(ip)) return isSpecialPurposeIpv4(ip);
  return !cidrContains('2000::/3', ip) || ipRange(ip) !== 'unicast';
}

/** A feed host that is, or resolves to, an address feeds may not reach. */
class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super(`The feed address ${address} is in a private or reserved network`);
  }
}

/**
 * Resolves a feed host once, refuses it when any of its addresses is special-purpose, and hands the connection
 * exactly the addresses it checked: there is no second look-up a rebinding DNS server could answer differently.
 * (`dns.lookup` through the module object, so tests can stand in for DNS.)
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const refused = allowPrivateNetworks ? undefined : list.find((a) => isSpecialAddress(a.address));
    if (refused) return callback(new RefusedAddressError(refused.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/**
 * Refuses a feed URL whose host is a special-purpose address written out (no look-up happens for those); names
 * are checked when the connection resolves them. Answers the reason, or null.
 */
function refusedLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivateNetworks || unmapIpv4(host) === null || !isSpecialAddress(host)) return null;
  return new RefusedAddressError(host).message;
}

export type FetchOutcome =
  | { ok: true; ips: string[]; domains: string[]; warning: string | null }
  | { ok: false; error: string };

/** Reads a response body as text, refusing anything above {@link MAX_FEED_BYTES}. */
async function readLimited(response: Response): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_FEED_BYTES) return null;
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FEED_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Fetches a feed over HTTP(S): at most 15 s and 5 MB, text with one entry per line. Lines that cannot be
 * read are skipped and named in a warning (the feed's other entries still count); a feed with nothing
 * readable, an HTTP error, a timeout or an oversized body is a failure whose message is kept on the feed.
 */
export async function fetchFeed(url: string): Promise<FetchOutcome> {
  let text: string | null;
  // Connections of this fetch only, each host through checkedLookup; none is kept for later.
  const agent = new Agent({ connect: { lookup: checkedLookup } });
  try {
    const signal = AbortSignal.timeout(FEED_FETCH_TIMEOUT_MS);
    // Redirects are followed by hand so that every hop's address is checked.
    let target = new URL(url);
    let response: Response;
    for (let hop = 0; ; hop++) {
      const refused = refusedLiteral(target);
      if (refused) return { ok: false, error: refused };
      response = await fetch(target, {
        signal,
        dispatcher: agent,
        redirect: 'manual',
        headers: { accept: 'text/plain, */*;q=0.5', 'user-agent': 'Palisade feed fetcher' },
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) break;
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) return { ok: false, error: `More than ${MAX_REDIRECTS} redirects` };
      target = new URL(location, target);
      if (!/^https?:$/.test(target.protocol)) return { ok: false, error: 'Redirected away from HTTP(S)' };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return {
        ok: false,
        error: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      };
    }
    text = await readLimited(response);
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return { ok: false, error: `No answer within ${FEED_FETCH_TIMEOUT_MS / 1000} s` };
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause instanceof RefusedAddressError) return { ok: false, error: cause.message };
    return {
      ok: false,
      error: `Could not fetch: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
  if (text === null) return { ok: false, error: `Larger than ${MAX_FEED_BYTES / 1024 / 1024} MB` };
  const parsed = parseFeedText(text);
  if (parsed.ips.length === 0 && parsed.domains.length === 0) {
    return {
      ok: false,
      error:
        parsed.errors.length > 0
          ? `No readable entries (line ${parsed.errors[0].line}: ${parsed.errors[0].value})`
          : 'The feed is empty',
    };
  }
  const warning =
    parsed.errors.length > 0
      ? `Skipped unreadable lines: ${parsed.errors
          .slice(0, 10)
          .map((e) => e.line)
          .join(', ')}${parsed.errors.length > 10 ? ' …' : ''}`
      : null;
  return { ok: true, ips: parsed.ips, domains: parsed.domains, warning };
}

// ---- Malicious IPs -----------------------------------------------------------------------------------

/** An address (a /32) or block as a range of unsigned 32-bit values; feed entries are IPv4 (policy-objects). */
const rangeOf = parseIpv4OrCidr;

/**
 * The IP and CIDR entries of the given (enabled) feeds, one item per entry with every source listing it,
 * sorted by address. An item is a duplicate when two sources list it, or when another source's block
 * contains it: that source is added to the item's sources, so the item names the ip and both sources.
 */
export function maliciousIps(feeds: readonly Pick<FeedState, 'id' | 'name' | 'ips'>[]): MaliciousIp[] {
  const items = new Map<
    string,
    { ip: string; network: number; prefix: number; sources: Map<string, string> }
  >();
  // Blocks (prefix < 32) by prefix length, then by network: which sources list each block.
  const blocks = new Map<number, Map<number, Map<string, string>>>();
  for (const feed of feeds) {
    for (const raw of feed.ips) {
      const range = rangeOf(raw);
      if (!range) continue;
      const key =
        range.prefix === 32 ? formatIpv4(range.network) : `${formatIpv4(range.network)}/${range.prefix}`;
      let item = items.get(key);
      if (!item) {
        item = { ip: key, ...range, sources: new Map() };
        items.set(key, item);
      }
      item.sources.set(feed.id, feed.name);
      if (range.prefix < 32) {
        let byNetwork = blocks.get(range.prefix);
        if (!byNetwork) {
          byNetwork = new Map();
          blocks.set(range.prefix, byNetwork);
        }
        let sources = byNetwork.get(range.network);
        if (!sources) {
          sources = new Map();
          byNetwork.set(range.network, sources);
        }
        sources.set(feed.id, feed.name);
      }
    }
  }
  const prefixes = [...blocks.keys()];
  const result: (MaliciousIp & { network: number; prefix: number })[] = [];
  for (const item of items.values()) {
    const sources = new Map(item.sources);
    for (const prefix of prefixes) {
      if (prefix >= item.prefix) continue; // only strictly wider blocks contain the entry
      const containing = blocks.get(prefix)!.get((item.network & ipv4Mask(prefix)) >>> 0);
      if (!containing) continue;
      for (const [id, name] of containing) if (!sources.has(id)) sources.set(id, name);
    }
    // A block contained only in blocks of its own sources is not a cross-source duplicate.
    result.push({
      ip: item.ip,
      sources: [...sources].map(([id, name]) => ({ id, name })),
      network: item.network,
      prefix: item.prefix,
    });
  }
  result.sort((a, b) => a.network - b.network || a.prefix - b.prefix);
  return result.map(({ ip, sources }) => ({ ip, sources }));
}

/** Whether a malicious-IP item matches a search: text in the entry, or an address the entry contains. */
export function matchesIpQuery(ip: string, q: string): boolean {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  if (ip.includes(needle)) return true;
  return isIpv4(needle) && ip.includes('/') && isIpInCidr(needle, ip);
}
