import { randomBytes } from 'node:crypto';
import {
  type ArtefactDiff,
  type ArtefactName,
  BLOCK_PAGE_ADDRESS_PLACEHOLDER,
  BLOCK_PAGE_URL_PLACEHOLDER,
  type BundleDiff,
  type BundlePreview,
  type BundleSummary,
  DEVICE_TUNNEL_NETWORK,
  type DeviceRoute,
  type DeviceWireguard,
  formatIpv4,
  GATEWAY_BUNDLE_MAX_WAIT_S,
  GATEWAY_BUNDLES_KEPT,
  GATEWAY_CREDENTIAL_PREFIX,
  GATEWAY_ENROLMENT_TTL_MS,
  GATEWAY_HEARTBEAT_MS,
  GATEWAY_KINDS,
  GATEWAY_OFFLINE_AFTER_MS,
  GATEWAY_UPGRADE_TIMEOUT_MS,
  type Gateway,
  type GatewayInput,
  type GatewayKind,
  type GatewayListQuery,
  type GatewayPeerState,
  type GatewayStatus,
  type GatewayUpdate,
  type GwBundle,
  type GwEnrolInput,
  type GwHeartbeat,
  LIVE_STATE_MAX,
  type LocalControls,
  PEER_ACTIVE_MS,
  parseIpOrCidr,
  parseIpv4,
  type RouteEntry,
  SITE_GATEWAY_KINDS,
  SITE_METRICS_RETENTION_DAYS,
  type SiteConfig,
} from '@palisade/contracts';
import {
  audiencesText,
  bundleVersion,
  nftablesRuleset,
  rpzAudiences,
  rpzZone,
  type SiteArtefacts,
  siteArtefacts,
  squidAcl,
  subjectAddressesOf,
  type TunnelIdentity,
  type WireguardPeer,
  wireguardConfig,
  ztnaRuleset,
} from '@palisade/gateway-config';
import { type EngineInput, explain, fullTunnelFor, type TunnelSubject } from '@palisade/policy-engine';
import { formatPatch, structuredPatch } from 'diff';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { type EventInput, recordEvent } from '../../lib/audit';
import { announceCredentialChange, CREDENTIALS_TOPIC, watchCredential } from '../../lib/change-bus';
import type { Ctx, GatewayCtx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { AppError, gatewayUnauthenticated, notFound } from '../../lib/errors';
import { claimScheduledRun } from '../../lib/scheduled-runs';
import type { ModuleDeps } from '../../lib/server-module';
import { previewPolicySave } from '../policies/policies.service';
import type { PolicyData } from '../policies/policy-validation';
import { countryRanges } from '../policy-core/geoip';
import {
  decidingRule,
  type LivePolicy,
  loadEngineInput,
  markPolicyChanged,
  POLICY_TOPIC,
  type PolicyCache,
  resolveRequest,
} from '../policy-core/policy-core.service';
import * as repo from './gateways.repository';
import { recordNeighbours } from './internal-devices.service';
import { lanInterfaces, localArtefacts, localControlsByGateway } from './local-controls.service';
import {
  deviceAllowedIps,
  inMesh,
  loadMeshPlan,
  type MeshPlan,
  routedNetworks,
  tunnelNetwork,
} from './mesh-plan';
import { type PrivateAccess, privateAccessOf } from './private-access.service';
import * as siteRepo from './site-config.repository';
import * as metrics from './site-metrics.repository';

/**
 * Gateways: cybernodes, virtual cybernodes and site gateways, the administrators' screens over them, and the
 * gateway protocol (enrol, bundle long-poll, heartbeat, events).
 *
 * **Bundles.** A tenant's bundle is compiled from the engine input the simulator compiles (policy-core's cache,
 * so the two never disagree) into the nftables, RPZ and squid artefacts (@palisade/gateway-config), stored with
 * a version (a hash of the artefacts) and kept {@link GATEWAY_BUNDLES_KEPT} deep for rollback. Each gateway adds
 * its own WireGuard interface; its bundle version is `<tenant version>.<wireguard hash>`, also the ETag.
 *
 * **Within a second.** A waiting long-poll listens on the change bus (every committed policy change announces the
 * tenant's new policy version, from any instance) and also re-checks the version every second, so a missed
 * announcement costs at most a second.
 */

export interface GatewayDeps extends Pick<ModuleDeps, 'database' | 'changes'> {
  policies: PolicyCache;
  bundles: BundleCache;
  /** The console's public address (config.publicUrl): where gateways send blocked web requests. */
  publicUrl?: string;
  /**
   * Called in a heartbeat's transaction once its peers' handshakes are stored: the users module updates users'
   * connection status from them (given by module-list.ts; the users module imports this one, not the reverse).
   */
  afterHandshakes?: (tx: Tx, tenantId: string) => Promise<unknown>;
}

/**
 * Each tenant's current bundle on this instance, by the policy version it was checked at: the 100 gateways a
 * change wakes share one read (and at most one compile) instead of each compiling the same bundle.
 */
export type BundleCache = Map<string, { policyVersion: number; row: Promise<CurrentBundle> }>;

/**
 * A stored bundle's content as reading it back gives it: JSON through jsonb, whose objects keep their keys
 * shorter first, then by their bytes (PostgreSQL's jsonb ordering). What a bundle serves must not depend on
 * whether this instance compiled it or read it: a gateway applies a delta to the bytes it holds and checks
 * their hash, and the delta's base may come from another instance or from the database.
 */
export function asStoredJson<T>(value: T): T {
  // One pass over the value (what JSON.stringify then JSON.parse would answer, keys reordered), each shape of
  // object sorted once: 10 000 rules are 10 000 objects of a few shapes.
  const orders = new Map<string, string[]>();
  const walk = (key: string, member: unknown): unknown => {
    let value = member;
    if (value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
      value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : null;
      case 'undefined':
      case 'function':
      case 'symbol':
        return OMITTED;
      case 'bigint':
        throw new TypeError('a BigInt is not JSON');
    }
    if (value === null) return null;
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        const stored = walk(String(i), item);
        return stored === OMITTED ? null : stored;
      });
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    const shape = keys.join('\u0000');
    let order = orders.get(shape);
    if (!order) {
      order = [...keys].sort(jsonbKeyOrder);
      orders.set(shape, order);
    }
    const out: Record<string, unknown> = {};
    for (const name of order) {
      const stored = walk(name, object[name]);
      if (stored === OMITTED) continue;
      // A member named __proto__ is a member, as JSON.parse makes it, not the object's prototype.
      if (name === '__proto__')
        Object.defineProperty(out, name, {
          value: stored,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[name] = stored;
    }
    return out;
  };
  const stored = walk('', value);
  return (stored === OMITTED ? undefined : stored) as T;
}

const OMITTED = Symbol('omitted');

/** Printable ASCII: one byte a character in UTF-8 (any other key is compared as its bytes). */
const PLAIN = /^[ -~]*$/;
/** jsonb's order of an object's keys: by length in bytes (UTF-8), then bytewise. */
function jsonbKeyOrder(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length - y.length || Buffer.compare(x, y);
}

/**
 * The tenant's current bundle with what each gateway's own part is made of: the WireGuard peers every gateway
 * has (the tenant's active devices with a key) and the private services and ZTNA rules of each site gateway.
 */
export type CurrentBundle = repo.BundleRow & {
  peers: WireguardPeer[];
  /** Who is behind each device tunnel address (the bundle's `identities`). */
  identities: NonNullable<GwBundle['identities']>;
  /** The private-access mesh: gateway-to-gateway peers, and the sites the devices reach through the hub. */
  mesh: MeshPlan;
  access: PrivateAccess;
  /** Each site gateway's local controls (local-controls.service.ts). */
  local: Map<string, LocalControls>;
};
export const createBundleCache = (): BundleCache => new Map();

/** How often a gateway is asked to report. */
export const HEARTBEAT_MS = GATEWAY_HEARTBEAT_MS;

const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
const ENROLMENT_PREFIX = 'gwe_';
/** Each gateway's tunnel network is a /24 of 100.100.0.0/16; the gateway is its .1. */
const TUNNEL_NETWORKS = 256;
const DEFAULT_LISTEN_PORT = 51820;
/** Spec §3: the server name is shown without its leading network prefix (`ngcn_`). */
export const displayServerName = (name: string | null) => (name ? name.replace(/^[a-z]+_/, '') : null);

export function statusOf(row: repo.GatewayRow, now: number): GatewayStatus {
  if (row.retiredAt) return 'retired';
  if (!row.enrolledAt) return 'pending';
  return row.lastSeenAt && now - row.lastSeenAt.getTime() <= GATEWAY_OFFLINE_AFTER_MS ? 'online' : 'offline';
}

/** A gateway as the screens show it, against the tenant's current bundle (and its saved site configuration). */
export function presentGateway(
  row: repo.GatewayRow,
  current: Pick<
    CurrentBundle,
    'version' | 'createdAt' | 'policy' | 'peers' | 'identities' | 'access' | 'local' | 'mesh'
  > | null,
  now = Date.now(),
  site: SiteConfig | null = null,
): Gateway {
  const currentVersion = current ? gatewayVersion(current.version, ownArtefacts(current, row, site)) : null;
  const isBehind =
    currentVersion !== null &&
    row.enrolledAt !== null &&
    !row.retiredAt &&
    row.enforcedVersion !== currentVersion;
  const upgrade = row.upgrade
    ? {
        ...row.upgrade,
        state:
          now - Date.parse(row.upgrade.requestedAt) > GATEWAY_UPGRADE_TIMEOUT_MS
            ? ('timedOut' as const)
            : ('pending' as const),
      }
    : null;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    region: row.region,
    serverUrl: row.serverUrl,
    serverName: displayServerName(row.serverName),
    status: statusOf(row, now),
    hostname: row.hostname,
    version: row.version,
    publicKey: row.publicKey,
    address: row.wgAddress,
    listenPort: row.listenPort,
    endpoint: row.endpoint,
    enrolledAt: row.enrolledAt?.toISOString() ?? null,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    enforcedVersion: row.enforcedVersion,
    enforcedAt: row.enforcedAt?.toISOString() ?? null,
    currentVersion,
    // Behind for longer than a long-poll plus a heartbeat.
    isDrifting:
      isBehind &&
      now - (current?.createdAt.getTime() ?? now) > GATEWAY_BUNDLE_MAX_WAIT_S * 1000 + GATEWAY_HEARTBEAT_MS,
    metrics: row.metrics,
    upgrade,
    createdAt: row.createdAt.toISOString(),
  };
}

// ─── Bundles ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Compiles the tenant artefacts of an engine input for the devices behind the tunnel addresses (`identities`):
 * rules of policies for some subjects match those devices' addresses (nftables sets, squid `src`) and their DNS
 * answers come from the zone of their audience (gateway-config audiences.ts). The version names the content: it
 * is hashed with the RPZ serials at 1, so a policy version that changes nothing a gateway enforces makes no new
 * bundle.
 */
function compileArtefacts(input: EngineInput, identities: readonly TunnelIdentity[], tenantId: string) {
  const subjectAddresses = subjectAddressesOf(identities);
  // Countries are blocked by the ranges the engine's own GeoIP database gives them.
  const nftables = nftablesRuleset(input, { lookupCountryRanges: countryRanges, subjectAddresses });
  // DNS blocks of policies with the block page answer its address, each gateway's own tunnel address in the end.
  const blockPageAddress = BLOCK_PAGE_ADDRESS_PLACEHOLDER;
  const rpz = rpzZone(input, { serial: 1, blockPageAddress });
  const audiences = rpzAudiences(input, identities, { serial: 1, blockPageAddress });
  // Blocked web requests are redirected to the block page; each gateway writes the console's address in.
  const squid = squidAcl(input, {
    subjectAddresses,
    blockPage: { publicUrl: BLOCK_PAGE_URL_PLACEHOLDER, tenantId },
  });
  const artefacts = {
    nftables: nftables.text,
    rpz: rpz.text,
    rpzAudiences: audiencesText(audiences.audiences),
    squid: squid.text,
  };
  const skipped = [
    ...nftables.skipped.map((entry) => ({ artefact: 'nftables', ...entry })),
    // The zone for everyone leaves the scoped rules to the audiences' zones, which report their own.
    ...rpz.skipped
      .filter((entry) => entry.reason !== 'subject-not-expressible')
      .map((entry) => ({ artefact: 'rpz', ...entry })),
    ...audiences.skipped
      .filter(
        (entry) =>
          !rpz.skipped.some(
            (e) => e.ruleId === entry.ruleId && e.reason === entry.reason && e.item === entry.item,
          ),
      )
      .map((entry) => ({ artefact: 'rpz', ...entry })),
    ...squid.skipped.map((entry) => ({ artefact: 'squid', ...entry })),
  ];
  return { version: bundleVersion(artefacts), artefacts, skipped };
}

/** The RPZ zone(s) with another SOA serial (the generator writes `( <serial> 3600 …` on the SOA line). */
const withSerial = (rpz: string, serial: number) =>
  rpz.replace(/^(@ IN SOA \S+ \S+ \( )\d+ /gm, `$1${serial} `);

/** Who is behind each device tunnel address: the device, its user and the user's groups. */
function identitiesOf(devices: Awaited<ReturnType<typeof repo.devicePeers>>): TunnelIdentity[] {
  return devices.map((device) => ({
    address: deviceAddress(device.host),
    deviceId: device.id,
    userId: device.userId,
    groups: device.groups ?? [],
  }));
}

/**
 * The tenant's current bundle, compiled first when the policy changed since the stored one. A pushed-back
 * (pinned) bundle stays current until the policy changes again: pinning bumps the policy version and stamps the
 * pinned bundle with it. Callers at the same policy version share one answer (see {@link BundleCache}).
 */
export async function ensureBundle(deps: GatewayDeps, tenantId: string): Promise<CurrentBundle> {
  const live = await deps.policies.compiledFor(tenantId);
  const hit = deps.bundles.get(tenantId);
  if (hit && hit.policyVersion === live.version) return hit.row;
  const entry = { policyVersion: live.version, row: currentOrCompiled(deps, tenantId, live) };
  deps.bundles.set(tenantId, entry);
  entry.row.catch(() => {
    if (deps.bundles.get(tenantId) === entry) deps.bundles.delete(tenantId);
  });
  return entry.row;
}

async function currentOrCompiled(
  deps: GatewayDeps,
  tenantId: string,
  live: LivePolicy,
): Promise<CurrentBundle> {
  const [stored, devices, access, local, mesh] = await deps.database.tenantTx(tenantId, async (tx) => {
    const access = await privateAccessOf(tx, tenantId);
    const gateways = await repo.activeGateways(tx, tenantId);
    const routes = routedNetworks(live.input, gateways);
    // Its version first: a bundle about to be compiled again is not read (megabytes at 10 000 rules).
    const head = await repo.currentBundleHead(tx, tenantId);
    return [
      head && head.policyVersion >= live.version ? await repo.currentBundle(tx, tenantId) : null,
      await repo.devicePeers(tx, tenantId),
      access,
      await localControlsByGateway(tx, tenantId),
      await loadMeshPlan(tx, tenantId, gateways, routes, access),
    ] as const;
  });
  const peers = devices.map((device) => ({
    publicKey: device.publicKey,
    allowedIps: [`${deviceAddress(device.host)}/32`],
    name: device.name,
  }));
  const identities = identitiesOf(devices);
  if (stored && stored.policyVersion >= live.version)
    return { ...stored, peers, identities, access, local, mesh };
  const { version, artefacts, skipped } = compileArtefacts(live.input, identities, tenantId);
  // A new zone gets a serial that only grows (seconds since 1970), as resolvers and secondaries expect; the same
  // content stored before keeps its own.
  const serial = Math.floor(Date.now() / 1000);
  const rpz = withSerial(artefacts.rpz, serial);
  const rpzAudiences = withSerial(artefacts.rpzAudiences, serial);
  const values = {
    tenantId,
    version,
    policyVersion: live.version,
    artefacts: { ...artefacts, rpz, rpzAudiences },
    policy: live.input,
    skipped,
  };
  const row = await deps.database.tenantTx(tenantId, async (tx) => {
    const { isNew, createdAt } = await repo.storeBundle(tx, values, GATEWAY_BUNDLES_KEPT);
    // Stored as compiled: the row is what was written (as reading it back would give it, not read back: it is
    // megabytes). Stored before with the same content: that content, with its own RPZ serial.
    if (isNew) {
      const { artefacts, policy, skipped } = asStoredJson({
        artefacts: values.artefacts,
        policy: values.policy,
        skipped: values.skipped,
      });
      return { ...values, artefacts, policy, skipped, pinnedAt: null, createdAt };
    }
    return (await repo.bundleByVersion(tx, tenantId, version)) as repo.BundleRow;
  });
  return { ...row, peers, identities, access, local, mesh };
}

/** A device's tunnel address: host `host` of {@link DEVICE_TUNNEL_NETWORK}. */
export const deviceAddress = (host: number) => `100.64.${host >> 8}.${host & 255}`;

/**
 * A gateway's WireGuard interface: one peer per device of the tenant that enrolled with a key (none at a mesh
 * site the devices reach through the hub), and the other gateways it peers with for the mesh.
 */
function wireguardOf(gateway: repo.GatewayRow, bundle: Pick<CurrentBundle, 'peers' | 'mesh'>): string {
  return wireguardConfig({
    address: gateway.wgAddress ?? '100.100.0.1/24',
    listenPort: gateway.listenPort ?? DEFAULT_LISTEN_PORT,
    peers: [
      ...(bundle.mesh.relayed.has(gateway.id) ? [] : bundle.peers),
      ...(bundle.mesh.peers.get(gateway.id) ?? []).map(({ gatewayId: _, endpoint, ...peer }) => ({
        ...peer,
        ...(endpoint ? { endpoint } : {}),
      })),
    ],
    privateKeyPlaceholder: true,
  });
}

const isSiteKind = (kind: GatewayKind) => (SITE_GATEWAY_KINDS as readonly GatewayKind[]).includes(kind);

/**
 * A site gateway's own artefacts, compiled from its saved configuration (site-config.service.ts); null for a
 * cybernode and for a site gateway nobody configured yet.
 */
export function siteOf(
  gateway: repo.GatewayRow,
  config: SiteConfig | null | undefined,
): SiteArtefacts | null {
  if (!config || !isSiteKind(gateway.kind)) return null;
  return siteArtefacts(config, { gatewayId: gateway.id });
}

/**
 * A gateway's own artefacts: its WireGuard interface, and for a site gateway its ZTNA firewall and (once
 * configured) its site artefacts.
 */
function ownArtefacts(
  bundle: Pick<CurrentBundle, 'version' | 'policy' | 'peers' | 'identities' | 'access' | 'local' | 'mesh'>,
  gateway: repo.GatewayRow,
  siteConfig: SiteConfig | null | undefined,
) {
  return {
    wireguard: wireguardOf(gateway, bundle),
    site: siteOf(gateway, siteConfig),
    // Connections from the devices' tunnel network only: the site's own hosts reach each other as before.
    ztna: isSiteKind(gateway.kind)
      ? ztnaRuleset(bundle.access.entries.get(gateway.id) ?? [], {
          gatewayId: gateway.id,
          guardFrom: [DEVICE_TUNNEL_NETWORK],
        }).text
      : null,
    local: localOf(bundle, gateway, siteConfig),
    // Not an artefact, but the gateway's own: who is behind each tunnel address changes what it logs.
    identities: identitiesJson(bundle.identities),
  };
}

/** The identities' JSON, made once per tenant bundle rather than once per gateway. */
const identitiesTexts = new WeakMap<CurrentBundle['identities'], string>();
function identitiesJson(identities: CurrentBundle['identities']): string {
  let text = identitiesTexts.get(identities);
  if (text === undefined) {
    text = JSON.stringify(identities);
    identitiesTexts.set(identities, text);
  }
  return text;
}

/** A site gateway's local controls compiled for its LANs; null without controls (and for a cybernode). */
function localOf(
  bundle: Pick<CurrentBundle, 'version' | 'policy' | 'local'>,
  gateway: repo.GatewayRow,
  siteConfig: SiteConfig | null | undefined,
) {
  const controls = bundle.local.get(gateway.id);
  if (!controls || !isSiteKind(gateway.kind)) return null;
  return localArtefacts(bundle.version, bundle.policy as EngineInput, controls, lanInterfaces(siteConfig));
}

/** A gateway's bundle version: the tenant's bundle version and a hash of its own artefacts. */
function gatewayVersion(tenantVersion: string, own: ReturnType<typeof ownArtefacts>) {
  const { wireguard, site, ztna, local, identities } = own;
  const hashed = {
    wireguard,
    identities,
    ...(site ? { 'site.nftables': site.nftables, 'site.interfaces': site.interfaces } : {}),
    ...(ztna !== null ? { ztna } : {}),
    ...(local ? { 'local.nftables': local.nftables, 'local.rpz': local.rpz } : {}),
  };
  return `${tenantVersion}.${bundleVersion(hashed).slice(0, 8)}`;
}

/** A gateway's own bundle: the tenant's artefacts plus its WireGuard interface (and site artefacts). */
export function gatewayBundle(
  bundle: CurrentBundle,
  gateway: repo.GatewayRow,
  siteConfig: SiteConfig | null = null,
  publicUrl?: string,
): GwBundle {
  const own = ownArtefacts(bundle, gateway, siteConfig);
  return {
    ...(publicUrl ? { blockPageUrl: publicUrl } : {}),
    version: gatewayVersion(bundle.version, own),
    createdAt: bundle.createdAt.toISOString(),
    artefacts: {
      ...(bundle.artefacts as { nftables: string; rpz: string; squid: string }),
      wireguard: own.wireguard,
      ...(own.site ? { site: own.site } : {}),
      ...(own.ztna !== null ? { ztna: own.ztna } : {}),
      ...(own.local ? { local: own.local } : {}),
    },
    policy: bundle.policy,
    skipped: bundle.skipped as GwBundle['skipped'],
    identities: bundle.identities,
  };
}

/**
 * Refuses a suspended tenant (403 `tenant_suspended`) or one scheduled for deletion (`tenant_pending_deletion`),
 * with the answers sign-in gives.
 */
async function assertTenantActive(database: Database, tenantId: string): Promise<void> {
  const standing = await repo.tenantStanding(database.db, tenantId);
  if (standing?.deletionDueAt) {
    throw new AppError('tenant_pending_deletion', 'This workspace is scheduled for deletion.');
  }
  if (standing?.suspendedAt) throw new AppError('tenant_suspended', 'This workspace is suspended.');
}

/**
 * How many of an instance's long-polls read at once; the others queue. A change wakes every gateway of the tenant
 * at the same moment: unchecked, their reads would take every connection (PGlite has one, PostgreSQL's pool ten)
 * and the console's requests would queue behind all of them. In turns, a console request waits for a few at most,
 * and half of PostgreSQL's pool stays free.
 */
const LONG_POLL_READS = { pglite: 2, postgres: 5 } as const;
const readTurns = new WeakMap<Database, { active: number; waiting: (() => void)[] }>();

async function inReadTurn<T>(database: Database, read: () => Promise<T>): Promise<T> {
  let turns = readTurns.get(database);
  if (!turns) {
    turns = { active: 0, waiting: [] };
    readTurns.set(database, turns);
  }
  const own = turns;
  if (own.active < LONG_POLL_READS[database.kind]) own.active++;
  // A finished read hands its turn over (active stays as it is).
  else await new Promise<void>((resolve) => own.waiting.push(resolve));
  try {
    return await read();
  } finally {
    const next = own.waiting.shift();
    // Handed over after the event loop's pending I/O: a hundred woken gateways' reads do not hold up the
    // console's answers (PGlite answers synchronously, so back to back they would never let it run).
    if (next) setImmediate(next);
    else own.active--;
  }
}

/** A gateway's bundle and the tenant's current bundle it was made of (bundle-wire.ts sends it). */
export interface GatewayBundleRead {
  bundle: GwBundle;
  current: CurrentBundle;
}

/** A long-poll's read waiting for its tenant's next batch ({@link readGatewayBundle}). */
interface PendingRead {
  gatewayId: string;
  /** Whether it checks its tenant's standing (suspended, scheduled for deletion) too. */
  checksTenant: boolean;
  resolve: (read: GatewayBundleRead) => void;
  reject: (error: unknown) => void;
}
const pendingReads = new WeakMap<Database, Map<string, PendingRead[]>>();

/**
 * Adds `item` to the batch of `key` that has not started yet, or starts one: after the event loop's turn (what
 * is asked for at the same moment joins it), in a read turn, `run` gets the batch's items. `run` answers each
 * item itself and never fails.
 */
function inBatchTurn<T>(
  database: Database,
  batches: WeakMap<Database, Map<string, T[]>>,
  key: string,
  item: T,
  run: (items: T[]) => Promise<void>,
) {
  let byKey = batches.get(database);
  if (!byKey) {
    byKey = new Map();
    batches.set(database, byKey);
  }
  const pending = byKey;
  const joined = pending.get(key);
  if (joined) {
    joined.push(item);
    return;
  }
  const items = [item];
  pending.set(key, items);
  setImmediate(() => {
    void inReadTurn(database, () => {
      if (pending.get(key) === items) pending.delete(key);
      return run(items);
    });
  });
}

interface PendingRecheck {
  recheck: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
const pendingRechecks = new WeakMap<Database, Map<string, PendingRecheck[]>>();

/**
 * A long-poll's access check before it answers, with those of the others answering at the same moment: one read
 * turn runs them all at once (a gateway's check is a credential look-up, and look-ups made together are one
 * query: {@link gatewayOfCredential}).
 */
function recheckInTurn(database: Database, recheck: () => Promise<unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    inBatchTurn(database, pendingRechecks, '', { recheck, resolve, reject }, async (checks) => {
      await Promise.all(
        checks.map(async (check) => {
          try {
            check.resolve(await check.recheck());
          } catch (error) {
            check.reject(error);
          }
        }),
      );
    });
  });
}

/**
 * A gateway's bundle, read with the other long-polls of its tenant that read at the same moment: a change wakes
 * every gateway of the tenant at once, and one transaction reads all their rows and site configurations (one
 * read turn, one look at the tenant's bundle) instead of one each — with a hundred gateways that was most of the
 * time between a save and the last gateway holding it. A read joins only a batch that has not started reading,
 * so it never answers from a state older than its own call; each gateway still gets its own bundle.
 */
function readGatewayBundle(deps: GatewayDeps, gw: GatewayCtx, checksTenant: boolean) {
  return new Promise<GatewayBundleRead>((resolve, reject) => {
    const read = { gatewayId: gw.gatewayId, checksTenant, resolve, reject };
    inBatchTurn(deps.database, pendingReads, gw.tenantId, read, (batch) =>
      readBatch(deps, gw.tenantId, batch),
    );
  });
}

async function readBatch(deps: GatewayDeps, tenantId: string, batch: PendingRead[]): Promise<void> {
  try {
    const standing = batch.some((read) => read.checksTenant)
      ? await assertTenantActive(deps.database, tenantId).then(
          () => null,
          (error: unknown) => ({ error }),
        )
      : null;
    const ids = [...new Set(batch.map((read) => read.gatewayId))];
    const [rows, sites] = await deps.database.tenantTx(
      tenantId,
      async (tx) =>
        [
          await repo.gatewaysByIds(tx, tenantId, ids),
          await siteRepo.siteConfigsOf(tx, tenantId, ids),
        ] as const,
    );
    const current = await ensureBundle(deps, tenantId);
    for (const read of batch) {
      const row = rows.get(read.gatewayId);
      if (standing && read.checksTenant) read.reject(standing.error);
      else if (!row || row.retiredAt) read.reject(gatewayUnauthenticated());
      else {
        try {
          const site = sites.get(read.gatewayId) ?? null;
          read.resolve({ bundle: gatewayBundle(current, row, site, deps.publicUrl), current });
        } catch (error) {
          read.reject(error);
        }
      }
    }
  } catch (error) {
    for (const read of batch) read.reject(error);
  }
}

/**
 * The gateway's bundle: at once when `have` is not its current version, else held until a change makes a new
 * one or `waitSeconds` pass (then null: nothing new).
 *
 * **Waiting holds no database connection** (PGlite has only one, PostgreSQL's pool ten, and hundreds of gateways
 * wait at any time): it reads, lets go of the connection, and sleeps until the change bus announces what concerns
 * it — a policy version of its tenant, its own site configuration — then reads again, in turn with the
 * instance's other long-polls ({@link LONG_POLL_READS}). A reconnected bus (which may have missed an announcement)
 * wakes it too.
 *
 * **Only while its credential acts:** `recheck` (the access check again, from scratch) runs at once when its
 * gateway's credential is announced changed (rotated or retired: the wait ends with 401) or the bus reconnected,
 * and again before a waiting long-poll answers, so nothing reaches a credential that stopped acting. Not on a
 * timer: that would be a read every few seconds per waiting gateway, for nothing the announcements do not say.
 * Its tenant is checked at the first read and whenever it is announced changed (suspended, scheduled for
 * deletion, moved) or the bus reconnected: such a tenant is refused with 403 (the gateway keeps what it enforces
 * and asks again later: suspending a customer does not cut its network).
 */
export async function waitForBundle(
  deps: GatewayDeps,
  gw: GatewayCtx,
  have: string | null,
  waitSeconds: number,
  options: { recheck: () => Promise<unknown>; signal?: AbortSignal },
): Promise<GatewayBundleRead | null> {
  const { signal } = options;
  const deadline = Date.now() + waitSeconds * 1000;
  let wake: () => void = () => {};
  let isWoken = false;
  // What ended the wait's credential, once the watch refused it.
  const refused: { error?: unknown; isRefused: boolean } = { isRefused: false };
  const rouse = () => {
    isWoken = true;
    wake();
  };
  // Woken after what is running now (the save that announced the change answers first: the gateways' reads and
  // the bundle's compile come after its answer, not before).
  const unsubscribe = deps.changes.subscribe(POLICY_TOPIC, (message) => {
    if (message === null || message.startsWith(`${gw.tenantId}:`)) setImmediate(rouse);
  });
  // Its own site configuration saved (on any instance).
  const unsubscribeSite = deps.changes.subscribe(siteRepo.SITE_CONFIG_TOPIC, (message) => {
    if (message === null || message === `${gw.tenantId}:${gw.gatewayId}`) rouse();
  });
  // Its tenant suspended, scheduled for deletion (read again: refused then); or a bus that reconnected, which may
  // have missed any announcement.
  let isTenantDue = true;
  const unsubscribeTenant = deps.changes.subscribe(CREDENTIALS_TOPIC, (message) => {
    if (message !== null && message !== `tenant:${gw.tenantId}`) return;
    isTenantDue = true;
    rouse();
  });
  const stopWatch = watchCredential(deps.changes, {
    subjects: [`gateway:${gw.gatewayId}`],
    recheck: options.recheck,
    everyMs: null,
    onRefused: (error) => {
      refused.error = error;
      refused.isRefused = true;
      wake();
    },
  });
  // The route checked the credential just now; once it has waited, it checks again before it answers.
  let hasWaited = false;
  const answer = async <T>(value: T): Promise<T> => {
    if (hasWaited) await recheckInTurn(deps.database, options.recheck);
    return value;
  };
  try {
    for (;;) {
      isWoken = false;
      const checksTenant = isTenantDue;
      isTenantDue = false;
      const read = await readGatewayBundle(deps, gw, checksTenant);
      if (refused.isRefused) throw refused.error;
      if (read.bundle.version !== have) return answer(read);
      // Woken while reading: read again at once.
      if (isWoken) continue;
      const left = deadline - Date.now();
      if (signal?.aborted) return null;
      if (left <= 0) return answer(null);
      hasWaited = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => wake(), left);
        const onAbort = () => wake();
        signal?.addEventListener('abort', onAbort, { once: true });
        wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          wake = () => {};
          resolve();
        };
      });
      if (refused.isRefused) throw refused.error;
      if (signal?.aborted) return null;
      if (!isWoken) return answer(null);
    }
  } finally {
    stopWatch();
    unsubscribe();
    unsubscribeSite();
    unsubscribeTenant();
  }
}

// ─── Administrators ─────────────────────────────────────────────────────────────────────────────────────────

const currentOf = (deps: GatewayDeps, tenantId: string) => ensureBundle(deps, tenantId);

export async function listGateways(deps: GatewayDeps, ctx: Ctx, query: GatewayListQuery) {
  const current = await currentOf(deps, ctx.tenant.id);
  const [page, sites] = await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const found = await repo.listGateways(tx, ctx.tenant.id, query, GATEWAY_OFFLINE_AFTER_MS);
    return [
      found,
      await siteRepo.siteConfigsOf(
        tx,
        ctx.tenant.id,
        found.items.map((row) => row.id),
      ),
    ] as const;
  });
  const now = Date.now();
  return {
    ...page,
    items: page.items.map((row) => presentGateway(row, current, now, sites.get(row.id) ?? null)),
  };
}

export async function getGateway(deps: GatewayDeps, ctx: Ctx, id: string) {
  const current = await currentOf(deps, ctx.tenant.id);
  const [row, site] = await deps.database.tenantTx(
    ctx.tenant.id,
    async (tx) =>
      [
        await repo.getGateway(tx, ctx.tenant.id, id),
        await siteRepo.siteConfigOf(tx, ctx.tenant.id, id),
      ] as const,
  );
  if (!row) throw notFound('Gateway');
  return presentGateway(row, current, Date.now(), site?.config ?? null);
}

/** A new enrolment token for a gateway: stored hashed, valid {@link GATEWAY_ENROLMENT_TTL_MS}. */
function enrolmentToken() {
  const token = newSecret(ENROLMENT_PREFIX);
  const expiresAt = new Date(Date.now() + GATEWAY_ENROLMENT_TTL_MS);
  return { token, expiresAt, hash: hashToken(token) };
}

export async function createGateway(deps: GatewayDeps, ctx: Ctx, input: z.output<typeof GatewayInput>) {
  const tenantId = ctx.tenant.id;
  const token = enrolmentToken();
  const row = await deps.database.tenantTx(tenantId, async (tx) => {
    const created = await repo.insertGateway(tx, {
      tenantId,
      name: input.name,
      kind: input.kind,
      region: input.region,
      enrolmentTokenHash: token.hash,
      enrolmentExpiresAt: token.expiresAt,
      createdBy: ctx.actor.id,
    });
    await recordEvent(tx, ctx, {
      action: 'gateway.create',
      objectType: 'gateway',
      objectId: created.id,
      objectName: created.name,
      after: { name: created.name, kind: created.kind, region: created.region },
    });
    return created;
  });
  return {
    cybernode: presentGateway(row, await currentOf(deps, tenantId)),
    enrolmentToken: { token: token.token, expiresAt: token.expiresAt.toISOString() },
  };
}

/** What a change writes of a gateway, and the event it records (with the row before and after). */
type GatewayWrite = Parameters<typeof repo.updateGateway>[3];
type GatewayEvent = (
  before: repo.GatewayRow,
  after: repo.GatewayRow,
) => Omit<EventInput, 'objectType' | 'objectId'>;

/**
 * Writes `values` to a gateway that is not retired and records its event, in one transaction; answers the
 * gateway as the screens show it.
 */
async function changeGateway(
  deps: GatewayDeps,
  ctx: Ctx,
  id: string,
  values: GatewayWrite,
  event: GatewayEvent,
) {
  const tenantId = ctx.tenant.id;
  const [row, site] = await deps.database.tenantTx(tenantId, async (tx) => {
    const before = await repo.getGateway(tx, tenantId, id);
    if (!before) throw notFound('Gateway');
    if (before.retiredAt) throw retired();
    const after = (await repo.updateGateway(tx, tenantId, id, values)) as repo.GatewayRow;
    // Its credential revoked (rotated, retired): its waiting long-poll ends at once, on every instance.
    if ('credentialHash' in values) await announceCredentialChange(tx, `gateway:${id}`);
    // The mesh's peers name it: the hub and the other sites take the change with the next policy version.
    if (await inMesh(tx, tenantId, id)) await markPolicyChanged(tx, tenantId);
    await recordEvent(tx, ctx, { ...event(before, after), objectType: 'gateway', objectId: id });
    return [after, await siteRepo.siteConfigOf(tx, tenantId, id)] as const;
  });
  return presentGateway(row, await currentOf(deps, tenantId), Date.now(), site?.config ?? null);
}

export const retired = () =>
  new AppError('conflict', 'This gateway is retired.', [
    { path: 'params.id', message: 'validation.gatewayRetired' },
  ]);

export function updateGateway(deps: GatewayDeps, ctx: Ctx, id: string, input: GatewayUpdate) {
  return changeGateway(deps, ctx, id, { name: input.name, region: input.region }, (before, after) => ({
    action: 'gateway.update',
    objectName: after.name,
    before: { name: before.name, region: before.region },
    after: { name: after.name, region: after.region },
  }));
}

export function retireGateway(deps: GatewayDeps, ctx: Ctx, id: string) {
  return changeGateway(
    deps,
    ctx,
    id,
    { retiredAt: new Date(), credentialHash: null, enrolmentTokenHash: null, enrolmentExpiresAt: null },
    (before) => ({
      action: 'gateway.retire',
      objectName: before.name,
      before: { status: statusOf(before, Date.now()) },
      after: { status: 'retired' },
    }),
  );
}

/** Revokes the credential at once and issues a new enrolment token: the gateway enrols again. */
export async function rotateCredentials(deps: GatewayDeps, ctx: Ctx, id: string) {
  const token = enrolmentToken();
  const cybernode = await changeGateway(
    deps,
    ctx,
    id,
    { credentialHash: null, enrolmentTokenHash: token.hash, enrolmentExpiresAt: token.expiresAt },
    (before) => ({ action: 'gateway.rotate', objectName: before.name }),
  );
  return {
    cybernode,
    enrolmentToken: { token: token.token, expiresAt: token.expiresAt.toISOString() },
  };
}

export function upgradeGateway(deps: GatewayDeps, ctx: Ctx, id: string, targetVersion: string) {
  return changeGateway(
    deps,
    ctx,
    id,
    { upgrade: { targetVersion, requestedAt: new Date().toISOString() } },
    (before) => ({
      action: 'gateway.upgrade',
      objectName: before.name,
      before: { version: before.version },
      after: { targetVersion },
    }),
  );
}

// ─── Devices ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A device's tunnel: its address, and every enrolled gateway of the tenant as a peer reaching the gateway's tunnel
 * network and the networks route rules send through it (a network routed through two gateways goes to the first
 * by name: WireGuard routes a block to one peer). The device's private key stays a placeholder it fills in.
 */
export async function deviceWireguard(tx: Tx, tenantId: string, host: number): Promise<DeviceWireguard> {
  const { fullTunnel: _, ...tunnel } = (await deviceWireguards(tx, tenantId, [host])).get(
    host,
  ) as DeviceWireguard & { fullTunnel: boolean };
  return tunnel;
}

/**
 * The tunnels of several devices at once (a page of the device list), loading what they share once. A device an
 * enabled `fullTunnel` policy applies to (policy-engine `fullTunnelFor`) sends everything to its resolver's
 * gateway: `AllowedIPs = 0.0.0.0/0, ::/0` there, with that gateway as its DNS; the other peers keep their
 * networks (WireGuard routes the longest prefix). Without a gateway to resolve through it stays split.
 */
export async function deviceWireguards(
  tx: Tx,
  tenantId: string,
  hosts: number[],
): Promise<Map<number, DeviceWireguard & { fullTunnel: boolean }>> {
  const enrolled = (await repo.activeGateways(tx, tenantId)).filter((g) => g.publicKey && g.wgAddress);
  const input = await loadEngineInput(tx, tenantId);
  const routes = routedNetworks(input, enrolled);
  const access = await privateAccessOf(tx, tenantId);
  const mesh = await loadMeshPlan(tx, tenantId, enrolled, routes, access);
  const subjects = input.policies.some((policy) => policy.fullTunnel)
    ? await repo.deviceSubjectsOfHosts(tx, tenantId, hosts)
    : new Map<number, TunnelSubject>();
  const now = Date.now();
  const tunnels = new Map<number, DeviceWireguard & { fullTunnel: boolean }>();
  for (const host of hosts) {
    // The internal hosts and networks its user may reach through private services and ZTNA rules, and through
    // the mesh; the mesh sites behind a hub are reached through it.
    const allowed = deviceAllowedIps(
      enrolled,
      routes,
      access.routes.get(host),
      mesh,
      mesh.memberHosts.has(host),
    );
    const gateways = enrolled.filter((gateway) => allowed.has(gateway.id));
    // The resolver of a gateway the device can reach: one with an endpoint, online ones first.
    const resolver = [...gateways]
      .filter((gateway) => gateway.endpoint)
      .sort((a, b) => Number(statusOf(b, now) === 'online') - Number(statusOf(a, now) === 'online'))[0];
    const subject = subjects.get(host);
    const fullTunnel = Boolean(resolver && subject && fullTunnelFor(input, subject));
    const peers = gateways.map((gateway) => ({
      gatewayId: gateway.id,
      name: gateway.name,
      publicKey: gateway.publicKey as string,
      endpoint: gateway.endpoint,
      allowedIps:
        fullTunnel && gateway.id === resolver?.id ? [...FULL_TUNNEL] : (allowed.get(gateway.id) ?? []),
    }));
    const address = `${deviceAddress(host)}/32`;
    const dns = resolver ? [(resolver.wgAddress as string).split('/')[0]] : [];
    const config = wireguardConfig({
      address,
      dns,
      privateKeyPlaceholder: true,
      peers: peers.map((peer) => ({
        publicKey: peer.publicKey,
        allowedIps: peer.allowedIps,
        name: peer.name,
        ...(peer.endpoint ? { endpoint: peer.endpoint } : {}),
        persistentKeepalive: 25,
      })),
    });
    tunnels.set(host, { address, dns, peers, config, fullTunnel });
  }
  return tunnels;
}

/** What a full tunnel sends to its gateway: everything, both families. */
const FULL_TUNNEL = ['0.0.0.0/0', '::/0'] as const;

/** When each enrolled gateway of the tenant last reported a handshake with a WireGuard key (null: none yet). */
export async function handshakesWith(tx: Tx, tenantId: string, publicKey: string) {
  const gateways = await repo.activeGateways(tx, tenantId);
  return new Map(
    gateways.map((gateway) => [
      gateway.id,
      gateway.peers.find((peer) => peer.publicKey === publicKey)?.lastHandshakeAt ?? null,
    ]),
  );
}

// ─── Live state: the spec's §7 calls ────────────────────────────────────────────────────────────────────────

/** The peers a gateway's last heartbeat reported, with the device and user holding each key. */
function peerStates(
  row: repo.GatewayRow,
  devices: ReadonlyMap<string, repo.DevicePeerRow>,
  now: number,
): GatewayPeerState[] {
  return row.peers.map((peer) => {
    const device = devices.get(peer.publicKey);
    return {
      publicKey: peer.publicKey,
      device: device ? { id: device.id, name: device.name } : null,
      user: device?.userId && device.username ? { id: device.userId, username: device.username } : null,
      lastHandshakeAt: peer.lastHandshakeAt,
      rxBytes: peer.rxBytes,
      txBytes: peer.txBytes,
      isActive: peer.lastHandshakeAt !== null && now - Date.parse(peer.lastHandshakeAt) <= PEER_ACTIVE_MS,
    };
  });
}

/** Gateways of some kinds (at most {@link LIVE_STATE_MAX}), the current bundle and the tenant's device keys. */
async function liveState(deps: GatewayDeps, ctx: Ctx, kinds: readonly GatewayKind[]) {
  const tenantId = ctx.tenant.id;
  const current = await ensureBundle(deps, tenantId);
  const [rows, devices, sites] = await deps.database.tenantTx(tenantId, async (tx) => {
    const found = await repo.gatewaysOfKinds(tx, tenantId, kinds, LIVE_STATE_MAX + 1);
    return [
      found,
      await repo.devicePeers(tx, tenantId),
      await siteRepo.siteConfigsOf(
        tx,
        tenantId,
        found.filter((row) => isSiteKind(row.kind)).map((row) => row.id),
      ),
    ] as const;
  });
  return {
    current,
    sites,
    rows: rows.slice(0, LIVE_STATE_MAX),
    isTruncated: rows.length > LIVE_STATE_MAX,
    devices: new Map(devices.map((device) => [device.publicKey, device])),
    now: Date.now(),
  };
}

/** `GET dynamicinfo/cgw`: the site gateways' live state and tunnel peers. */
export async function cgwDynamicInfo(deps: GatewayDeps, ctx: Ctx) {
  const { current, sites, rows, isTruncated, devices, now } = await liveState(deps, ctx, SITE_GATEWAY_KINDS);
  return {
    items: rows.map((row) => {
      const shown = presentGateway(row, current, now, sites.get(row.id) ?? null);
      return {
        id: shown.id,
        name: shown.name,
        kind: shown.kind,
        region: shown.region,
        status: shown.status,
        version: shown.version,
        lastSeenAt: shown.lastSeenAt,
        enforcedVersion: shown.enforcedVersion,
        currentVersion: shown.currentVersion,
        isDrifting: shown.isDrifting,
        metrics: shown.metrics,
        peers: peerStates(row, devices, now),
      };
    }),
    isTruncated,
  };
}

/** `GET system/exedgeinfo`: the cybernodes (points of presence) and a count per region. */
export async function exEdgeInfo(deps: GatewayDeps, ctx: Ctx) {
  const { current, rows, isTruncated, now } = await liveState(deps, ctx, ['cybernode']);
  const items = rows.map((row) => {
    const shown = presentGateway(row, current, now);
    return {
      id: shown.id,
      name: shown.name,
      kind: shown.kind,
      region: shown.region,
      serverUrl: shown.serverUrl,
      serverName: shown.serverName,
      status: shown.status,
      version: shown.version,
      lastSeenAt: shown.lastSeenAt,
      metrics: shown.metrics,
    };
  });
  const regions = new Map<string, { region: string; total: number; online: number }>();
  for (const item of items) {
    const entry = regions.get(item.region) ?? { region: item.region, total: 0, online: 0 };
    entry.total++;
    if (item.status === 'online') entry.online++;
    regions.set(item.region, entry);
  }
  return {
    regions: [...regions.values()].sort((a, b) => a.region.localeCompare(b.region)),
    items,
    isTruncated,
  };
}

/** `GET ocnconfig`: the tenant's overlay network. */
export async function ocnConfig(deps: GatewayDeps, ctx: Ctx) {
  const { current, rows } = await liveState(deps, ctx, GATEWAY_KINDS);
  const enrolled = rows.filter((row) => row.enrolledAt !== null);
  return {
    deviceNetwork: DEVICE_TUNNEL_NETWORK,
    gateways: enrolled.map((row) => ({
      id: row.id,
      name: row.name,
      kind: row.kind,
      network: row.wgAddress ? tunnelNetwork(row.wgAddress) : null,
      listenPort: row.listenPort,
      endpoint: row.endpoint,
      publicKey: row.publicKey,
    })),
    dns: {
      rpzZone: 'rpz.palisade.',
      resolvers: enrolled.flatMap((row) => (row.wgAddress ? [row.wgAddress.split('/')[0]] : [])),
    },
    heartbeatMs: GATEWAY_HEARTBEAT_MS,
    offlineAfterMs: GATEWAY_OFFLINE_AFTER_MS,
    bundleMaxWaitSeconds: GATEWAY_BUNDLE_MAX_WAIT_S,
    currentVersion: current.version,
  };
}

/** `GET ocn/virtsess`: every device tunnel the gateways reported, active first, then by last handshake. */
export async function virtualSessions(deps: GatewayDeps, ctx: Ctx) {
  const { rows, devices, now } = await liveState(deps, ctx, GATEWAY_KINDS);
  const sessions = rows.flatMap((row) =>
    peerStates(row, devices, now).map((peer) => ({
      ...peer,
      gateway: { id: row.id, name: row.name, kind: row.kind },
    })),
  );
  sessions.sort(
    (a, b) =>
      Number(b.isActive) - Number(a.isActive) ||
      (b.lastHandshakeAt ?? '').localeCompare(a.lastHandshakeAt ?? '') ||
      a.publicKey.localeCompare(b.publicKey),
  );
  return { items: sessions.slice(0, LIVE_STATE_MAX), isTruncated: sessions.length > LIVE_STATE_MAX };
}

/** `GET {product}/cgwsusers`: the users whose devices are peers of site gateways, most recent first. */
export async function cgwsUsers(deps: GatewayDeps, ctx: Ctx) {
  const { rows, devices, now } = await liveState(deps, ctx, SITE_GATEWAY_KINDS);
  const users = new Map<
    string,
    {
      userId: string;
      username: string;
      devices: Set<string>;
      gateways: Map<string, string>;
      lastHandshakeAt: string | null;
      isActive: boolean;
    }
  >();
  for (const row of rows) {
    for (const peer of peerStates(row, devices, now)) {
      if (!peer.user || !peer.device) continue;
      const entry = users.get(peer.user.id) ?? {
        userId: peer.user.id,
        username: peer.user.username,
        devices: new Set<string>(),
        gateways: new Map<string, string>(),
        lastHandshakeAt: null,
        isActive: false,
      };
      entry.devices.add(peer.device.id);
      entry.gateways.set(row.id, row.name);
      if (peer.lastHandshakeAt && (entry.lastHandshakeAt ?? '') < peer.lastHandshakeAt) {
        entry.lastHandshakeAt = peer.lastHandshakeAt;
      }
      entry.isActive ||= peer.isActive;
      users.set(peer.user.id, entry);
    }
  }
  const items = [...users.values()]
    .map((entry) => ({
      ...entry,
      devices: entry.devices.size,
      gateways: [...entry.gateways].map(([id, name]) => ({ id, name })),
    }))
    .sort(
      (a, b) =>
        (b.lastHandshakeAt ?? '').localeCompare(a.lastHandshakeAt ?? '') ||
        a.username.localeCompare(b.username),
    );
  return { items: items.slice(0, LIVE_STATE_MAX), isTruncated: items.length > LIVE_STATE_MAX };
}

/**
 * The tenant's routes: every ROUTE rule in the order the engine evaluates them (system ones included), each with
 * action route matched to the gateway its target names.
 */
export async function listRoutes(deps: GatewayDeps, ctx: Ctx): Promise<{ items: RouteEntry[] }> {
  const tenantId = ctx.tenant.id;
  const { compiled } = await deps.policies.compiledFor(tenantId);
  const rows = await deps.database.tenantTx(tenantId, (tx) =>
    repo.gatewaysOfKinds(tx, tenantId, GATEWAY_KINDS, LIVE_STATE_MAX),
  );
  const now = Date.now();
  const byTarget = new Map<string, repo.GatewayRow>();
  for (const row of rows) {
    byTarget.set(row.name.toLowerCase(), row);
    if (row.hostname) byTarget.set(row.hostname.toLowerCase(), row);
  }
  const items = compiled.rules
    .filter((r) => r.type === 'ROUTE')
    .map((r) => {
      const gateway = r.action === 'route' ? byTarget.get(r.rule.target.toLowerCase()) : undefined;
      return {
        ...r.ref,
        url: r.rule.url,
        target: r.rule.target,
        ports: r.rule.ports,
        networks: r.rule.url
          .split(/[;,\s]+/)
          .filter(Boolean)
          .map((item) => (item === '*' ? '0.0.0.0/0' : item)),
        isActive: r.active,
        gateway: gateway ? { id: gateway.id, name: gateway.name, status: statusOf(gateway, now) } : null,
      };
    });
  return { items };
}

export async function getRoute(deps: GatewayDeps, ctx: Ctx, id: string): Promise<RouteEntry> {
  const found = (await listRoutes(deps, ctx)).items.find((route) => route.ruleId === id);
  if (!found) throw notFound('Route');
  return found;
}

/** The first address of a network (`10.20.0.0/16` → `10.20.0.1`; a single address stays itself). */
function firstAddress(network: string): string | null {
  // Route networks are IPv4 (the engine decides IPv4 destinations).
  const block = parseIpOrCidr(network);
  if (block?.family !== 4) return null;
  if (block.prefix >= 31) return block.host;
  return formatIpv4((parseIpv4(block.host) as number) + 1);
}

/**
 * A route as one device gets it: the engine decides the device's traffic (its user, the user's groups, the device)
 * to the route's first address with the live compiled policy — the simulator's decision — and the device's
 * WireGuard AllowedIPs towards the route's gateway show what its tunnel carries there.
 */
export async function deviceRoute(
  deps: GatewayDeps,
  ctx: Ctx,
  ruleId: string,
  deviceId: string,
): Promise<DeviceRoute> {
  const tenantId = ctx.tenant.id;
  const route = await getRoute(deps, ctx, ruleId);
  const { compiled } = await deps.policies.compiledFor(tenantId);
  const destination = route.networks.map(firstAddress).find((address) => address !== null) ?? null;
  return deps.database.tenantTx(tenantId, async (tx) => {
    const device = await repo.deviceById(tx, tenantId, deviceId);
    if (!device) throw notFound('Device');
    const address = device.host ? deviceAddress(device.host) : null;
    const tunnel = device.host ? await deviceWireguard(tx, tenantId, device.host) : null;
    // The peer towards the route's gateway, or the mesh's hub when the device reaches that site through it.
    const peer =
      tunnel?.peers.find((p) => route.gateway && p.gatewayId === route.gateway.id) ??
      tunnel?.peers.find((p) => route.networks.some((network) => p.allowedIps.includes(network)));
    const allowedIps = peer?.allowedIps ?? [];
    const shown = {
      id: device.id,
      name: device.name,
      user: device.userId && device.username ? { id: device.userId, username: device.username } : null,
      address: address ? `${address}/32` : null,
    };
    if (!destination) {
      return {
        route,
        device: shown,
        destination,
        decision: null,
        gatewayTarget: null,
        decidedBy: null,
        isThisRoute: false,
        allowedIps,
      };
    }
    const { request } = await resolveRequest(
      tx,
      tenantId,
      { userId: device.userId ?? undefined, deviceId: device.id, destination, protocol: 'tcp' },
      'params',
    );
    const decided = explain(compiled, request);
    const { rule } = decidingRule(decided);
    return {
      route,
      device: shown,
      destination,
      decision: decided.decision,
      gatewayTarget: decided.gateway,
      decidedBy: rule,
      isThisRoute: decided.decision === 'allow' && decided.gateway !== null && rule?.ruleId === route.ruleId,
      allowedIps,
    };
  });
}

// ─── Bundle history, rollback and preview ───────────────────────────────────────────────────────────────────

type TenantArtefacts = { nftables: string; rpz: string; rpzAudiences?: string; squid: string };
const TENANT_ARTEFACTS = ['nftables', 'rpz', 'rpzAudiences', 'squid'] as const;
/** Beyond this many changed lines a diff is not worked out (Myers' diff grows with the square of the edits). */
const MAX_DIFF_EDITS = 4_000;

/** How `to` differs from `from`, line by line, as a unified diff with 2 lines of context. */
export function artefactDiff(artefact: ArtefactName, from: string, to: string): ArtefactDiff {
  if (from === to) return { artefact, added: 0, removed: 0, diff: '', isTooLarge: false };
  const patch = structuredPatch(artefact, artefact, from, to, undefined, undefined, {
    context: 2,
    maxEditLength: MAX_DIFF_EDITS,
  });
  if (!patch) {
    // Counted as multisets of lines: what is in one and not the other.
    const count = new Map<string, number>();
    for (const line of from.split('\n')) count.set(line, (count.get(line) ?? 0) + 1);
    let added = 0;
    for (const line of to.split('\n')) {
      const left = count.get(line) ?? 0;
      if (left > 0) count.set(line, left - 1);
      else added++;
    }
    const removed = [...count.values()].reduce((sum, n) => sum + n, 0);
    return { artefact, added, removed, diff: '', isTooLarge: true };
  }
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { artefact, added, removed, diff: formatPatch(patch), isTooLarge: false };
}

/** The artefacts' differences, the RPZ serial aside (it changes with every new zone). */
function tenantDiffs(from: TenantArtefacts, to: TenantArtefacts): ArtefactDiff[] {
  const content = (artefacts: TenantArtefacts) => ({
    ...artefacts,
    rpz: withSerial(artefacts.rpz, 1),
    rpzAudiences: withSerial(artefacts.rpzAudiences ?? '', 1),
  });
  const [a, b] = [content(from), content(to)];
  return TENANT_ARTEFACTS.map((name) => artefactDiff(name, a[name], b[name]));
}

function summarise(row: repo.BundleRow, current: repo.BundleRow): BundleSummary {
  return {
    version: row.version,
    policyVersion: row.policyVersion,
    createdAt: row.createdAt.toISOString(),
    pinnedAt: row.pinnedAt?.toISOString() ?? null,
    isCurrent: row.version === current.version,
    skipped: (row.skipped as unknown[]).length,
  };
}

export async function listBundles(deps: GatewayDeps, ctx: Ctx) {
  const current = await ensureBundle(deps, ctx.tenant.id);
  const rows = await deps.database.tenantTx(ctx.tenant.id, (tx) => repo.listBundles(tx, ctx.tenant.id));
  return { items: rows.map((row) => summarise(row, current)) };
}

async function keptBundle(deps: GatewayDeps, ctx: Ctx, version: string) {
  const row = await deps.database.tenantTx(ctx.tenant.id, (tx) =>
    repo.bundleByVersion(tx, ctx.tenant.id, version),
  );
  if (!row) throw notFound('Bundle');
  return row;
}

/** What pushing a kept bundle back would change: the current bundle's artefacts against it. */
export async function diffBundle(deps: GatewayDeps, ctx: Ctx, version: string): Promise<BundleDiff> {
  const current = await ensureBundle(deps, ctx.tenant.id);
  const kept = await keptBundle(deps, ctx, version);
  return {
    from: current.version,
    to: kept.version,
    artefacts: tenantDiffs(current.artefacts as TenantArtefacts, kept.artefacts as TenantArtefacts),
  };
}

/**
 * Pushes a kept bundle back to every gateway (rollback): pins it and bumps the policy version, so every waiting
 * gateway on every instance wakes and takes it; it stays current until the policy changes again.
 */
export async function pushBundle(deps: GatewayDeps, ctx: Ctx, version: string): Promise<BundleSummary> {
  const tenantId = ctx.tenant.id;
  const before = await ensureBundle(deps, tenantId);
  await keptBundle(deps, ctx, version);
  const pinned = await deps.database.tenantTx(tenantId, async (tx) => {
    const policyVersion = await markPolicyChanged(tx, tenantId);
    const row = await repo.pinBundle(tx, tenantId, version, policyVersion);
    if (!row) throw notFound('Bundle');
    await recordEvent(tx, ctx, {
      action: 'gateway.rollback',
      objectType: 'gateway',
      objectId: null,
      objectName: version,
      before: { version: before.version },
      after: { version },
    });
    return row;
  });
  return summarise(pinned, pinned);
}

/**
 * What saving a policy would push, with nothing saved: the save runs with all its checks in a transaction that
 * rolls back; its engine input is compiled into the artefacts and compared with the current bundle.
 */
export async function previewBundle(
  deps: GatewayDeps,
  ctx: Ctx,
  policyId: string | null,
  policy: PolicyData,
): Promise<BundlePreview> {
  const tenantId = ctx.tenant.id;
  const current = await ensureBundle(deps, tenantId);
  const input: EngineInput = await previewPolicySave(deps.database, ctx, policyId, policy);
  const devices = await deps.database.tenantTx(tenantId, (tx) => repo.devicePeers(tx, tenantId));
  const next = compileArtefacts(input, identitiesOf(devices), tenantId);
  const artefacts = tenantDiffs(current.artefacts as TenantArtefacts, next.artefacts);
  const isChanged = next.version !== current.version;
  const receivers = isChanged
    ? await deps.database.tenantTx(tenantId, (tx) => repo.activeGateways(tx, tenantId))
    : [];
  return {
    currentVersion: current.version,
    nextVersion: next.version,
    gateways: receivers.map((row) => ({ id: row.id, name: row.name, kind: row.kind })),
    artefacts,
  };
}

// ─── The gateway protocol ───────────────────────────────────────────────────────────────────────────────────

/** The gateway of a credential (`Authorization: Bearer gw_…`), or null when it is wrong, rotated or retired. */
export function gatewayOfCredential(
  database: Database,
  credential: string,
): Promise<{ tenantId: string; id: string } | null> {
  if (!credential.startsWith(GATEWAY_CREDENTIAL_PREFIX)) return Promise.resolve(null);
  const hash = hashToken(credential);
  let lookups = credentialLookups.get(database);
  if (!lookups) {
    const batch = new Map<string, CredentialLookup[]>();
    lookups = batch;
    credentialLookups.set(database, batch);
    // Sent once the code running now is done: what it looks up at the same moment joins (the re-checks of the
    // long-polls a change answers, {@link recheckInTurn}).
    queueMicrotask(() => {
      credentialLookups.delete(database);
      repo.gatewaysByCredentials(database.db, [...batch.keys()]).then(
        (found) => {
          for (const [key, waiting] of batch)
            for (const lookup of waiting) lookup.resolve(found.get(key) ?? null);
        },
        (error: unknown) => {
          for (const waiting of batch.values()) for (const lookup of waiting) lookup.reject(error);
        },
      );
    });
  }
  const pending = lookups;
  return new Promise((resolve, reject) => {
    const waiting = pending.get(hash);
    if (waiting) waiting.push({ resolve, reject });
    else pending.set(hash, [{ resolve, reject }]);
  });
}

interface CredentialLookup {
  resolve: (gateway: { tenantId: string; id: string } | null) => void;
  reject: (error: unknown) => void;
}
/** The credential look-ups not sent yet, by credential hash ({@link gatewayOfCredential}). */
const credentialLookups = new WeakMap<Database, Map<string, CredentialLookup[]>>();

/** A tunnel network no other gateway of the tenant uses. */
function freeAddress(used: string[]): string {
  const taken = new Set(used);
  for (let n = 0; n < TUNNEL_NETWORKS; n++) {
    const address = `100.100.${n}.1/24`;
    if (!taken.has(address)) return address;
  }
  throw new AppError('conflict', 'No tunnel network is free.', [
    { path: 'body.token', message: 'validation.tooMany' },
  ]);
}

const badToken = () => new AppError('not_found', 'This enrolment token is not valid.');

/**
 * Enrols a gateway with its one-time token and WireGuard public key: answers its credential (stored hashed)
 * and its tunnel settings. The token is used up; a used, expired or unknown token is not found.
 */
export async function enrol(deps: GatewayDeps, input: z.output<typeof GwEnrolInput>, ip: string | null) {
  const tokenHash = hashToken(input.token);
  const found = await repo.gatewayByEnrolmentToken(deps.database.db, tokenHash);
  if (!found) throw badToken();
  const tenantId = found.tenantId;
  const credential = newSecret(GATEWAY_CREDENTIAL_PREFIX);
  const row = await deps.database.tenantTx(tenantId, async (tx) => {
    if (!found.wgAddress) await repo.lockTunnelAddresses(tx, tenantId);
    const address = found.wgAddress ?? freeAddress(await repo.usedAddresses(tx, tenantId));
    // The token is used up by the update itself: of requests racing with it, one enrols, the others get 404.
    const enrolled = await repo.consumeEnrolmentToken(tx, tenantId, found.id, tokenHash, {
      credentialHash: hashToken(credential),
      publicKey: input.publicKey,
      hostname: input.hostname,
      version: input.version,
      wgAddress: address,
      listenPort: found.listenPort ?? DEFAULT_LISTEN_PORT,
      endpoint: input.endpoint ?? null,
      serverName: `ngcn_${input.hostname}`,
      enrolledAt: new Date(),
      lastSeenAt: new Date(),
    });
    if (!enrolled) throw badToken();
    // A hub or mesh site enrolling: the others peer with its new key and endpoint.
    if (await inMesh(tx, tenantId, found.id)) await markPolicyChanged(tx, tenantId);
    await recordEvent(
      tx,
      { tenant: { id: tenantId }, ip, actor: { id: null, username: 'gateway' } },
      {
        action: 'gateway.enrol',
        objectType: 'gateway',
        objectId: found.id,
        objectName: found.name,
        after: { hostname: input.hostname, version: input.version, publicKey: input.publicKey },
      },
    );
    return enrolled;
  });
  return { row, credential };
}

/** Records a heartbeat; answers the tenant's current bundle version and an upgrade asked for. */
export async function heartbeat(deps: GatewayDeps, gw: GatewayCtx, beat: z.output<typeof GwHeartbeat>) {
  const bundle = await ensureBundle(deps, gw.tenantId);
  const [row, site] = await deps.database.tenantTx(gw.tenantId, async (tx) => {
    await repo.recordHeartbeat(tx, gw.tenantId, gw.gatewayId, beat);
    await repo.markDevicesSeen(tx, gw.tenantId, beat.peers);
    // Users' connection status follows the handshakes just reported (not the seed's).
    await deps.afterHandshakes?.(tx, gw.tenantId);
    await recordNeighbours(tx, gw, beat.lan);
    const gateway = await repo.getGateway(tx, gw.tenantId, gw.gatewayId);
    // A site's performance, rolled up per minute (/devices/site-performance).
    if (gateway && isSiteKind(gateway.kind)) {
      await metrics.recordSiteSample(tx, gw.tenantId, gw.gatewayId, {
        latencyMs: beat.latencyMs ?? null,
        throughputBps: beat.metrics.throughputBps,
        activePeers: beat.metrics.activePeers,
      });
    }
    return [gateway, await siteRepo.siteConfigOf(tx, gw.tenantId, gw.gatewayId)] as const;
  });
  if (!row) throw gatewayUnauthenticated();
  return {
    currentVersion: gatewayBundle(bundle, row, site?.config).version,
    upgrade: row.upgrade ? { targetVersion: row.upgrade.targetVersion } : null,
  };
}

const EVENT_PURGE_INTERVAL_MS = 3_600_000;

/** Deletes the sites' per-minute metrics past their retention, on one instance per interval. */
export async function purgeSiteMetrics(database: Database): Promise<number | null> {
  const isMine = await claimScheduledRun(database.db, 'site-metrics-purge', EVENT_PURGE_INTERVAL_MS - 60_000);
  if (!isMine) return null;
  return metrics.deleteSiteMetricsOlderThan(database.db, SITE_METRICS_RETENTION_DAYS);
}

/** Starts the hourly purge of the sites' metrics; answers the function that stops it. */
export function startSiteMetricsPurge(database: Database, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    database.background(
      purgeSiteMetrics(database)
        .then((deleted) => {
          if (deleted) log.info({ deleted }, 'purged site metrics past retention');
        })
        .catch((err: unknown) => log.error({ err }, 'site metrics purge failed')),
    );
  }, EVENT_PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
