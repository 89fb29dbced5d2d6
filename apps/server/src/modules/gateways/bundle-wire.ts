import { promisify } from 'node:util';
import { gzip as gzipCallback, gzipSync } from 'node:zlib';
import type { GwBundle } from '@palisade/contracts';
import {
  BUNDLE_DELTA_CONTENT_TYPE,
  BUNDLE_DELTA_IM,
  type BundleDelta,
  bundleDigest,
  bundleParts,
  type PartDelta,
  partDelta,
  partHash,
} from '@palisade/gateway-config/bundle-delta';
import type { GatewayCtx } from '../../lib/context';
import * as repo from './gateways.repository';
import type { CurrentBundle, GatewayBundleRead, GatewayDeps } from './gateways.service';

/**
 * A gateway's bundle on the wire (`GET /gw/bundle`): gzip when it accepts it, and to a gateway that holds version
 * N and asks for it (`A-IM: palisade-lines`, RFC 3229) the delta N → current (226 IM Used) where that is smaller
 * than the bundle (see @palisade/gateway-config/bundle-delta).
 *
 * **Once per version, not per gateway.** A bundle is the tenant's part (the artefacts every gateway shares, the
 * engine input, `skipped`: 35.8 MB at 100 000 rules) and each gateway's own (its WireGuard interface, identities,
 * a site's artefacts). The tenant's part is serialised, gzipped and hashed once per tenant version; a delta of it
 * once per pair of versions; each answer adds the gateway's own part (a second gzip member: a gzip stream may be
 * several members, RFC 1952 §2.2). A gateway's version is `<tenant version>.<hash of its own part>`, so when
 * the second half of N is the current one its own part did not change; otherwise its own parts are sent whole.
 * The tenant's part of a delta is serialised and gzipped once per pair too: the hundred gateways a save wakes
 * each get it from memory, between a gzip member of their own head (versions, digest) and one of their own parts.
 *
 * **Never stale.** The caches are keyed by what their entries were made of: a tenant version's entry serves only
 * the very bundle it was made of (a bundle read or compiled again, even of the same version, makes a new one), and
 * a delta is keyed by those entries, not by the version names. Both are bounded (the newest kept, the oldest
 * dropped).
 */

const gzip = promisify(gzipCallback);
/** Tenant versions and version pairs kept on this instance (the current ones and those gateways still hold). */
const KEPT_SHARED = 16;
const KEPT_DELTAS = 32;

/** The tenant's part of one version, by the names {@link bundleParts} gives them. */
interface Shared {
  /** This entry, among every entry made on this instance (what a delta is keyed by). */
  id: number;
  /** The bundle it was made of. */
  source: TenantRow;
  parts: Record<string, string>;
  /** The parts' length, in characters. */
  length: number;
  hashes: Map<string, string>;
  /** The top-level members and artefacts it covers. */
  top: string[];
  artefacts: string[];
  /** `{"policy":…,"skipped":…,"createdAt":…,"artefacts":{"nftables":…` (the object left open), gzipped. */
  json: () => Promise<{ text: string; gzip: Buffer }>;
}

/** The tenant's part of a delta from one version to another. */
interface SharedDelta {
  parts: Record<string, PartDelta>;
  /** The parts' members in JSON, without the braces around them (`"policy#json":{…},…`). */
  json: string;
  /** {@link json}, gzipped (made the first time it is asked for). */
  gzip: () => Promise<Buffer>;
}

const shared = new Map<string, Shared>();
const deltas = new Map<string, Promise<SharedDelta>>();
let sharedMade = 0;

/** A bounded map: the newest entries kept, the oldest dropped. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): V {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as string);
  return value;
}

type TenantRow = Pick<
  repo.BundleRow,
  'tenantId' | 'version' | 'artefacts' | 'policy' | 'skipped' | 'createdAt'
>;

/** The tenant's part of the bundle `row`: from the cache when it was made of this very row. */
function sharedOf(row: TenantRow): Shared {
  const key = `${row.tenantId}:${row.version}`;
  const hit = shared.get(key);
  if (
    hit &&
    (hit.source === row ||
      (hit.source.artefacts === row.artefacts &&
        hit.source.policy === row.policy &&
        hit.source.skipped === row.skipped &&
        hit.source.createdAt.getTime() === row.createdAt.getTime()))
  )
    return remember(shared, key, hit, KEPT_SHARED);
  const members = {
    policy: row.policy,
    skipped: row.skipped,
    createdAt: row.createdAt.toISOString(),
  };
  const parts = bundleParts({ ...members, artefacts: row.artefacts });
  const hashes = new Map(Object.entries(parts).map(([name, text]) => [name, partHash(text)]));
  let json: Promise<{ text: string; gzip: Buffer }> | null = null;
  const entry: Shared = {
    id: ++sharedMade,
    source: row,
    parts,
    length: Object.values(parts).reduce((sum, text) => sum + text.length, 0),
    hashes,
    top: Object.keys(members),
    artefacts: Object.keys(row.artefacts),
    json: () => {
      json ??= (async () => {
        const top = Object.entries(members).map(
          ([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`,
        );
        const artefacts = Object.entries(row.artefacts).map(
          ([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`,
        );
        const text = `{${top.join(',')},"artefacts":{${artefacts.join(',')}`;
        return { text, gzip: await gzip(text) };
      })();
      return json;
    },
  };
  return remember(shared, key, entry, KEPT_SHARED);
}

/** The gateway's own part of its bundle: what is not the tenant's (by identity with the tenant's values). */
function ownOf(bundle: GwBundle, current: CurrentBundle, part: Shared) {
  const artefacts = bundle.artefacts as Record<string, unknown>;
  const tenantArtefacts = current.artefacts as Record<string, string>;
  const isShared =
    bundle.policy === current.policy &&
    bundle.skipped === current.skipped &&
    bundle.createdAt === current.createdAt.toISOString() &&
    part.artefacts.every((name) => artefacts[name] === tenantArtefacts[name]);
  if (!isShared) return null;
  const ownArtefacts = Object.fromEntries(
    Object.entries(artefacts).filter(([name]) => !(name in tenantArtefacts)),
  );
  const ownTop = Object.fromEntries(
    Object.entries(bundle).filter(([name]) => name !== 'artefacts' && !part.top.includes(name)),
  );
  const parts = bundleParts({ ...ownTop, artefacts: ownArtefacts });
  const close = [
    ...Object.entries(ownArtefacts)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`),
    '}',
    ...Object.entries(ownTop)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`),
    '}',
  ].join('');
  return { parts, json: close };
}

export interface WireAnswer {
  status: 200 | 226;
  headers: Record<string, string>;
  body: Buffer;
}

/** Whether `Accept-Encoding` takes gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((item) => {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (name === 'gzip' || name === '*') && !(q && Number(q.slice(2)) === 0);
  });
}

/** Whether `A-IM` asks for our line deltas. */
export const acceptsDelta = (header: string | string[] | undefined) =>
  (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .some((item) => item.trim().split(';')[0].toLowerCase() === BUNDLE_DELTA_IM);

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer to a gateway for `bundle` (its current bundle, made of the tenant's `current`), knowing it holds
 * `have` and how it can take it.
 */
export async function bundleAnswer(
  deps: GatewayDeps,
  gw: GatewayCtx,
  { bundle, current }: GatewayBundleRead,
  request: { have: string | null; gzip: boolean; delta: boolean },
): Promise<WireAnswer> {
  const encode = async (
    text: string,
    type: string,
    status: 200 | 226,
    extra: Record<string, string> = {},
  ) => ({
    status,
    headers: {
      'content-type': type,
      ...extra,
      ...(request.gzip ? { 'content-encoding': 'gzip' } : {}),
      vary: 'accept-encoding, a-im',
    },
    body: request.gzip ? await gzip(text) : Buffer.from(text),
  });
  const [tenantVersion] = bundle.version.split('.');
  if (current.version !== tenantVersion) return encode(JSON.stringify(bundle), JSON_TYPE, 200);
  const part = sharedOf(current);
  const own = ownOf(bundle, current, part);
  if (!own) return encode(JSON.stringify(bundle), JSON_TYPE, 200);
  // About the full bundle's length (its parts' texts; JSON escapes add a little), without serialising it.
  const fullLength = part.length + own.json.length;

  if (request.delta && request.have && request.have !== bundle.version) {
    const delta = await deltaFor(deps, gw, request.have, bundle.version, part, own.parts);
    // The tenant's part (from memory) between the gateway's own head and parts: JSON.stringify of the delta.
    if (delta && delta.head.length + delta.shared.json.length + delta.tail.length < fullLength) {
      return {
        status: 226,
        headers: {
          'content-type': BUNDLE_DELTA_CONTENT_TYPE,
          im: BUNDLE_DELTA_IM,
          'delta-base': `"${request.have}"`,
          ...(request.gzip ? { 'content-encoding': 'gzip' } : {}),
          vary: 'accept-encoding, a-im',
        },
        body: request.gzip
          ? Buffer.concat([gzipSync(delta.head), await delta.shared.gzip(), gzipSync(delta.tail)])
          : Buffer.from(delta.head + delta.shared.json + delta.tail),
      };
    }
  }
  const { text, gzip: packed } = await part.json();
  return {
    status: 200,
    headers: {
      'content-type': JSON_TYPE,
      ...(request.gzip ? { 'content-encoding': 'gzip' } : {}),
      vary: 'accept-encoding, a-im',
    },
    body: request.gzip ? Buffer.concat([packed, gzipSync(own.json)]) : Buffer.from(text + own.json),
  };
}

/**
 * The delta from the gateway's `have` to `version` as the JSON text of a {@link BundleDelta}, in three pieces:
 * `head` (up to the opening of `parts`), the tenant's part shared by every gateway of the pair of versions, and
 * `tail` (the gateway's own parts and the closing braces). Null when its base is no longer kept.
 */
async function deltaFor(
  deps: GatewayDeps,
  gw: GatewayCtx,
  have: string,
  version: string,
  next: Shared,
  ownParts: Record<string, string>,
): Promise<{ head: string; shared: SharedDelta; tail: string } | null> {
  const [baseVersion, baseOwn] = have.split('.');
  const [, nextOwn] = version.split('.');
  let base = shared.get(`${gw.tenantId}:${baseVersion}`);
  if (!base) {
    const row = await deps.database.tenantTx(gw.tenantId, (tx) =>
      repo.bundleByVersion(tx, gw.tenantId, baseVersion),
    );
    if (!row) return null;
    base = sharedOf(row);
  }
  const from = base;
  const key = `${from.id}>${next.id}`;
  let tenantDelta = deltas.get(key);
  if (!tenantDelta) {
    tenantDelta = Promise.resolve().then(() => {
      const parts: Record<string, PartDelta> = {};
      for (const [name, text] of Object.entries(next.parts)) {
        const change = partDelta(from.parts[name], text);
        if (change) parts[name] = change;
      }
      const json = JSON.stringify(parts).slice(1, -1);
      let packed: Promise<Buffer> | null = null;
      return { parts, json, gzip: () => (packed ??= gzip(json)) };
    });
    remember(deltas, key, tenantDelta, KEPT_DELTAS);
  }
  const tenantPart = await tenantDelta;
  // Its own part: unchanged but for the version when the second half of the versions agree, else sent whole.
  const own: Record<string, PartDelta> = {};
  for (const [name, text] of Object.entries(ownParts)) {
    if (name === 'version' || baseOwn !== nextOwn) own[name] = { text };
  }
  const all = { ...next.parts, ...ownParts };
  const delta: Omit<BundleDelta, 'parts'> = {
    from: have,
    version,
    sha256: bundleDigest(all, (name, text) => next.hashes.get(name) ?? partHash(text)),
    names: Object.keys(all),
  };
  // The tenant's parts and the gateway's own have no name in common (ownOf).
  const ownJson = JSON.stringify(own).slice(1, -1);
  return {
    head: `${JSON.stringify(delta).slice(0, -1)},"parts":{`,
    shared: tenantPart,
    tail: `${tenantPart.json && ownJson ? ',' : ''}${ownJson}}}`,
  };
}
