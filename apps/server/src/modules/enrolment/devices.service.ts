import type { Readable } from 'node:stream';
import {
  DEVICE_CHECKIN_SECONDS,
  DEVICE_CSV_COLUMNS,
  type DeviceBulkInput,
  type DeviceCheckin,
  type DeviceCheckinAnswer,
  type DeviceConfigDownload,
  type DeviceDetail,
  type DeviceExportQuery,
  type DeviceListItem,
  type DeviceListQuery,
  type DeviceSettings,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx, DeviceCtx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { AppError, deviceUnauthenticated, invalid, notFound } from '../../lib/errors';
import { requireConfigFlag } from '../features/features.service';
import { deviceWireguard, deviceWireguards, handshakesWith } from '../gateways/gateways.service';
import { moveDevicesToPolicyGroup } from '../policies/policy-groups.service';
import { devicePolicies } from '../policies/user-policy-view.service';
import { markPolicyChanged } from '../policy-core/policy-core.service';
import { configFingerprint } from './config-fingerprint';
import { checkinEvents, keyDetail, postureOf, recordDeviceEvents } from './device-events';
import * as repo from './devices.repository';
import * as enrolmentRepo from './enrolment.repository';
import { deleteDevices, type EnrolmentDeps } from './enrolment.service';

/**
 * The device inventory (`/devices/list`, `/devices/{id}`), the tenant's device rules, and the client's
 * check-in and key rotation. See packages/contracts/src/devices.ts for the states.
 */

export { postureOf };

/** Whether a handed-out configuration differs from the current one; null when there is nothing to compare. */
function outdatedOf(
  row: Pick<repo.InventoryRow, 'kind' | 'state' | 'wgHost' | 'configFingerprint'>,
  current: Map<number, { config: string }>,
): boolean | null {
  if (row.kind !== 'endpoint' || row.state !== 'active' || row.wgHost === null || !row.configFingerprint)
    return null;
  const tunnel = current.get(row.wgHost);
  return tunnel ? configFingerprint(tunnel.config) !== row.configFingerprint : null;
}

/** The current tunnels of the rows that were handed a configuration (one load for a page). */
async function currentTunnelsOf(tx: Tx, tenantId: string, rows: readonly repo.InventoryRow[]) {
  const hosts = rows
    .filter((row) => row.kind === 'endpoint' && row.state === 'active' && row.configFingerprint)
    .flatMap((row) => (row.wgHost === null ? [] : [row.wgHost]));
  return hosts.length ? deviceWireguards(tx, tenantId, hosts) : new Map();
}

export function presentItem(
  row: repo.InventoryRow,
  now = Date.now(),
  configOutdated: boolean | null = null,
): DeviceListItem {
  const seen = row.lastSeenAt?.getTime() ?? null;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    os: row.os,
    userId: row.userId,
    username: row.username,
    status: seen === null ? 'never' : now - seen < row.onlineMs ? 'online' : 'offline',
    state: row.state,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    agentVersion: row.agentVersion,
    posture: postureOf(row.posture),
    enforcedVersion: row.enforcedVersion,
    address: row.address,
    keyExpiresAt: row.keyExpiresAt?.toISOString() ?? null,
    enrolledAt: row.enrolledAt?.toISOString() ?? null,
    configOutdated,
  };
}

export async function listDevices(database: Database, ctx: Ctx, query: DeviceListQuery) {
  const tenantId = ctx.tenant.id;
  const { page, current } = await database.tenantTx(tenantId, async (tx) => {
    const page = await repo.listInventory(tx, tenantId, query);
    return { page, current: await currentTunnelsOf(tx, tenantId, page.items) };
  });
  const now = Date.now();
  return { ...page, items: page.items.map((row) => presentItem(row, now, outdatedOf(row, current))) };
}

const EXPORT_BATCH = 1000;

/** The event log's actor for what a device does with its own credential. */
const DEVICE_ACTOR = { id: null, username: 'device' } as const;

/** The list as CSV, every page of the query in its order, a page per transaction. */
export function exportDevices(database: Database, ctx: Ctx, query: DeviceExportQuery): Readable {
  const out = stringify({ header: true, columns: [...DEVICE_CSV_COLUMNS], escape_formulas: true });
  (async () => {
    let cursor: string | undefined;
    do {
      const page = await listDevices(database, ctx, {
        ...query,
        limit: EXPORT_BATCH,
        offset: 0,
        cursor,
        withTotal: 'false',
      });
      for (const item of page.items) {
        const line = Object.fromEntries(DEVICE_CSV_COLUMNS.map((column) => [column, item[column] ?? '']));
        if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

const keyExpiry = async (tx: Tx, tenantId: string) => (await repo.initialState(tx, tenantId)).keyExpiresAt;

/** The state an action moves endpoints from and to. */
const TRANSITIONS = {
  approve: { from: ['pending'], to: 'active', action: 'device.approve' },
  disable: { from: ['active', 'pending', 'expired'], to: 'disabled', action: 'device.disable' },
  enable: { from: ['disabled'], to: 'active', action: 'device.enable' },
} as const;

/**
 * A bulk action on endpoints of the tenant (ids that are not are skipped and not counted). Approving or enabling
 * makes an endpoint a gateway peer again, disabling removes it: the policy version moves so every gateway gets its
 * new interface at once. Moving into a policy group is refused (403) while the tenant has `policyGroups` off.
 */
export async function bulkDevices(
  deps: EnrolmentDeps,
  ctx: Ctx,
  input: z.output<typeof DeviceBulkInput>,
): Promise<{ affected: number }> {
  const tenantId = ctx.tenant.id;
  const ids = [...new Set(input.ids)];
  if (input.action === 'delete') {
    const { deleted } = await deleteDevices(deps, ctx, ids);
    return { affected: deleted };
  }
  if (input.action === 'move') {
    // Moving into a policy group needs the tenant's policy groups (spec §6): 403 while the flag is off.
    await requireConfigFlag(deps, ctx.tenant, 'policyGroups');
    const endpoints = await deps.database.tenantTx(tenantId, (tx) => repo.endpointsAmong(tx, tenantId, ids));
    if (endpoints.length === 0) return { affected: 0 };
    await moveDevicesToPolicyGroup(deps.database, ctx, input.policyGroupId as string, endpoints);
    return { affected: endpoints.length };
  }
  const transition = TRANSITIONS[input.action];
  return deps.database.tenantTx(tenantId, async (tx) => {
    const endpoints = (await repo.endpointsAmong(tx, tenantId, ids)).filter((row) =>
      (transition.from as readonly string[]).includes(row.state),
    );
    if (endpoints.length === 0) return { affected: 0 };
    // Locked first, as every policy change does, then written.
    if (endpoints.some((row) => row.wgHost !== null)) await markPolicyChanged(tx, tenantId);
    // An approved or enabled endpoint starts a new key lifetime.
    const expiresAt = transition.to === 'active' ? await keyExpiry(tx, tenantId) : undefined;
    const changed = new Set(
      await repo.setDeviceState(
        tx,
        tenantId,
        endpoints.map((row) => row.id),
        transition.to,
        expiresAt,
      ),
    );
    for (const row of endpoints.filter((endpoint) => changed.has(endpoint.id))) {
      await recordEvent(tx, ctx, {
        action: transition.action,
        objectType: 'device',
        objectId: row.id,
        objectName: row.name,
        before: { state: row.state },
        after: { state: transition.to },
      });
    }
    return { affected: changed.size };
  });
}

async function detailOf(tx: Tx, tenantId: string, id: string): Promise<DeviceDetail> {
  const row = await repo.inventoryRow(tx, tenantId, id);
  if (!row) throw notFound('Device');
  const item = presentItem(row);
  if (row.kind === 'site') {
    return {
      ...item,
      enrolledVia: null,
      postureChecks: {},
      sessions: [],
      wireguard: null,
      policyGroups: [],
      policies: [],
      configDownloadedAt: null,
      fullTunnel: false,
    };
  }
  const extras = await repo.endpointExtras(tx, tenantId, id);
  const sessions = await repo.deviceSessionsOf(tx, tenantId, id);
  const policyGroups = (await enrolmentRepo.policyGroupsOfDevices(tx, tenantId, [id])).get(id) ?? [];
  const groups = extras?.userId ? await repo.groupsOfUser(tx, tenantId, extras.userId) : [];
  const policies = await devicePolicies(tx, tenantId, { id, userId: extras?.userId ?? null, groups });
  let wireguard: DeviceDetail['wireguard'] = null;
  let configOutdated: boolean | null = null;
  let fullTunnel = false;
  if (extras?.wgPublicKey && extras.wgHost !== null) {
    const current = await deviceWireguards(tx, tenantId, [extras.wgHost]);
    const tunnel = current.get(extras.wgHost) as NonNullable<ReturnType<typeof current.get>>;
    configOutdated = outdatedOf(row, current);
    fullTunnel = tunnel.fullTunnel;
    const handshakes = await handshakesWith(tx, tenantId, extras.wgPublicKey);
    wireguard = {
      publicKey: extras.wgPublicKey,
      address: tunnel.address,
      peers: tunnel.peers.map((peer) => ({
        ...peer,
        lastHandshakeAt: handshakes.get(peer.gatewayId) ?? null,
      })),
    };
  }
  return {
    ...item,
    configOutdated,
    enrolledVia: extras?.enrolledVia ?? null,
    postureChecks: row.posture,
    sessions: sessions.map((s) => ({
      startedAt: s.startedAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      ip: s.ip,
      agentVersion: s.agentVersion,
    })),
    wireguard,
    policyGroups,
    policies,
    configDownloadedAt: extras?.configDownloadedAt?.toISOString() ?? null,
    fullTunnel,
  };
}

export function getDeviceDetail(database: Database, ctx: Ctx, id: string) {
  return database.tenantTx(ctx.tenant.id, (tx) => detailOf(tx, ctx.tenant.id, id));
}

/** The endpoint of an id, or 404 (a site gateway is renamed on its gateway page). */
async function requireEndpoint(tx: Tx, tenantId: string, id: string) {
  const [row] = await repo.endpointsAmong(tx, tenantId, [id]);
  if (!row) throw notFound('Device');
  return row;
}

export function updateDevice(database: Database, ctx: Ctx, id: string, name: string) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const before = await requireEndpoint(tx, tenantId, id);
    if (before.name !== name) {
      // Peer names are comments in the gateways' interfaces.
      if (before.wgHost !== null) await markPolicyChanged(tx, tenantId);
      await repo.renameDevice(tx, tenantId, id, name);
      await recordEvent(tx, ctx, {
        action: 'device.update',
        objectType: 'device',
        objectId: id,
        objectName: name,
        before: { name: before.name },
        after: { name },
      });
    }
    return detailOf(tx, tenantId, id);
  });
}

/** 409 `device_no_tunnel`: the endpoint is not active or has no WireGuard key. */
const noTunnel = () =>
  new AppError('device_no_tunnel', 'The device has no tunnel now, so there is no configuration to download.');

/**
 * An endpoint's current configuration for the standard WireGuard apps, handed out again: its fingerprint and the
 * time are recorded (so it is no longer outdated) and the handing-out is audited. The private key stays a
 * placeholder — the browser fills it in from what the reader pastes, as at enrolment.
 */
export function downloadDeviceConfig(
  database: Database,
  ctx: Ctx,
  id: string,
): Promise<DeviceConfigDownload> {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const before = await requireEndpoint(tx, tenantId, id);
    const extras = await repo.endpointExtras(tx, tenantId, id);
    if (before.state !== 'active' || before.wgHost === null || !extras?.wgPublicKey) throw noTunnel();
    const tunnel = (await deviceWireguards(tx, tenantId, [before.wgHost])).get(before.wgHost);
    if (!tunnel) throw noTunnel();
    const fingerprint = configFingerprint(tunnel.config);
    const downloadedAt = new Date();
    await repo.recordConfigFingerprint(tx, tenantId, id, fingerprint, downloadedAt);
    await recordEvent(tx, ctx, {
      action: 'device.config.download',
      objectType: 'device',
      objectId: id,
      objectName: before.name,
      after: { fingerprint, fullTunnel: tunnel.fullTunnel, peers: tunnel.peers.map((peer) => peer.name) },
    });
    return {
      config: tunnel.config,
      fingerprint,
      address: tunnel.address,
      publicKey: extras.wgPublicKey,
      fullTunnel: tunnel.fullTunnel,
      downloadedAt: downloadedAt.toISOString(),
    };
  });
}

export function expireDeviceKey(database: Database, ctx: Ctx, id: string) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const before = await requireEndpoint(tx, tenantId, id);
    if (before.state === 'active' && before.wgHost !== null) {
      await markPolicyChanged(tx, tenantId);
      await repo.expireKey(tx, tenantId, id);
      await recordEvent(tx, ctx, {
        action: 'device.key.expire',
        objectType: 'device',
        objectId: id,
        objectName: before.name,
        before: { state: before.state },
        after: { state: 'expired' },
      });
    }
    return detailOf(tx, tenantId, id);
  });
}

export function getDeviceSettings(database: Database, ctx: Ctx): Promise<DeviceSettings> {
  return database.tenantTx(
    ctx.tenant.id,
    (tx) => repo.getSettings(tx, ctx.tenant.id) as Promise<DeviceSettings>,
  );
}

export function updateDeviceSettings(database: Database, ctx: Ctx, input: DeviceSettings) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const before = await repo.getSettings(tx, tenantId);
    await repo.putSettings(tx, tenantId, input);
    await recordEvent(tx, ctx, {
      action: 'device.settings.update',
      objectType: 'tenant',
      objectId: tenantId,
      objectName: ctx.tenant.name,
      before,
      after: input,
    });
    return input;
  });
}

// ─── The client ─────────────────────────────────────────────────────────────────────────────────────────────

export async function deviceOfCredential(database: Database, credential: string) {
  return repo.deviceOfTokenHash(database.db, hashToken(credential));
}

/**
 * What a check-in or rotation answers. The client applies the tunnel it is given, so that configuration is the
 * device's now: its fingerprint is recorded (nothing is written when it is unchanged).
 */
async function answerOf(
  tx: Tx,
  tenantId: string,
  deviceId: string,
  row: { state: DeviceCheckinAnswer['state']; keyExpiresAt: Date | null; wgHost: number | null },
): Promise<DeviceCheckinAnswer> {
  const wireguard =
    row.state === 'active' && row.wgHost !== null ? await deviceWireguard(tx, tenantId, row.wgHost) : null;
  if (wireguard)
    await repo.recordConfigFingerprint(tx, tenantId, deviceId, configFingerprint(wireguard.config));
  return {
    state: row.state,
    keyExpiresAt: row.keyExpiresAt?.toISOString() ?? null,
    wireguard,
    checkinSeconds: DEVICE_CHECKIN_SECONDS,
  };
}

/**
 * A check-in: keeps what the client reports and answers its state and, while active, its tunnel. A posture that
 * changed (compliant, failing, unknown) and an agent of another version than before are device events, recorded
 * once the check-in is committed (device-events.ts).
 */
export async function checkin(
  database: Database,
  device: DeviceCtx,
  input: z.output<typeof DeviceCheckin>,
  log?: FastifyBaseLogger,
) {
  const { answer, events } = await database.tenantTx(device.tenantId, async (tx) => {
    const row = await repo.recordCheckin(tx, device.tenantId, device.deviceId, {
      agentVersion: input.agentVersion,
      enforcedVersion: input.enforcedVersion,
      posture: input.posture,
      ip: device.ip,
    });
    if (!row) throw deviceUnauthenticated();
    const events = checkinEvents(
      { deviceId: device.deviceId, userId: row.previous.userId },
      row.previous,
      input,
    );
    return { answer: await answerOf(tx, device.tenantId, device.deviceId, row), events };
  });
  await recordDeviceEvents(database, device.tenantId, events, log);
  return answer;
}

/**
 * A new key made on the device: it replaces the old one at every gateway, and a new key lifetime starts. Another
 * key than the one it had is a device event (`key_rotated`), recorded once committed.
 */
export async function rotateKey(
  database: Database,
  device: DeviceCtx,
  publicKey: string,
  log?: FastifyBaseLogger,
) {
  const tenantId = device.tenantId;
  const { answer, rotated } = await database.tenantTx(tenantId, async (tx) => {
    const [before] = await repo.endpointsAmong(tx, tenantId, [device.deviceId]);
    if (!before) throw deviceUnauthenticated();
    const extras = await repo.endpointExtras(tx, tenantId, device.deviceId);
    if (extras?.wgPublicKey !== publicKey && (await enrolmentRepo.wireguardKeyTaken(tx, tenantId, publicKey)))
      throw invalid([{ path: 'body.publicKey', message: 'validation.wireguardKeyTaken' }]);
    await markPolicyChanged(tx, tenantId);
    const wgHost = before.wgHost ?? (await enrolmentRepo.nextWireguardHost(tx, tenantId));
    const expiresAt = await keyExpiry(tx, tenantId);
    await repo.replaceKey(tx, tenantId, device.deviceId, publicKey, wgHost, expiresAt);
    await recordEvent(
      tx,
      { tenant: { id: tenantId }, ip: device.ip, actor: DEVICE_ACTOR },
      {
        action: 'device.key.rotate',
        objectType: 'device',
        objectId: device.deviceId,
        objectName: before.name,
        before: { publicKey: extras?.wgPublicKey ?? null },
        after: { publicKey, keyExpiresAt: expiresAt?.toISOString() ?? null },
      },
    );
    const [after] = await repo.endpointsAmong(tx, tenantId, [device.deviceId]);
    const answer = await answerOf(tx, tenantId, device.deviceId, {
      state: after.state,
      keyExpiresAt: expiresAt,
      wgHost: after.wgHost,
    });
    const oldKey = extras?.wgPublicKey ?? null;
    const rotated =
      oldKey === publicKey
        ? null
        : {
            action: 'key_rotated' as const,
            deviceId: device.deviceId,
            userId: extras?.userId ?? null,
            detail: keyDetail(oldKey, publicKey, expiresAt ?? null),
          };
    return { answer, rotated };
  });
  await recordDeviceEvents(database, tenantId, rotated ? [rotated] : [], log);
  return answer;
}

/** Expires keys whose lifetime ended; their gateways drop the peers with the next bundle. */
export async function expireDueKeys(database: Database): Promise<number> {
  const tenants = await repo.expireDueKeys(database.db);
  for (const tenantId of tenants) await database.tenantTx(tenantId, (tx) => markPolicyChanged(tx, tenantId));
  return tenants.length;
}

const KEY_EXPIRY_INTERVAL_MS = 60_000;

/** Starts the minutely key-expiry sweep; answers the function that stops it. */
export function startKeyExpiry(database: Database, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    database.background(
      expireDueKeys(database)
        .then((tenants) => {
          if (tenants) log.info({ tenants }, 'expired device keys');
        })
        .catch((err: unknown) => log.error({ err }, 'device key expiry failed')),
    );
  }, KEY_EXPIRY_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
