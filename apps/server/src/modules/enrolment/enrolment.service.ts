import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type CreatedLink,
  DEVICE_OPTIONS_LIMIT,
  type DeploymentKey,
  type DeploymentKeyInput,
  type Device,
  type DeviceOptionsQuery,
  type EnrolInput,
  type Enrolled,
  type EnrolmentInfo,
  type EnrolmentState,
  ONE_DAY_MS,
  type TenantKind,
  USER_DEVICES_CSV_COLUMNS,
  type UserDevices,
  type UserDevicesExportQuery,
  type UserDevicesQuery,
  type UserLinkInput,
  Uuid,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { AppError, invalid, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { deviceWireguard } from '../gateways/gateways.service';
import { markPolicyChanged } from '../policy-core/policy-core.service';
import { configFingerprint } from './config-fingerprint';
import { enrolledDetail, recordDeviceEvents } from './device-events';
import * as devices from './devices.repository';
import * as repo from './enrolment.repository';

export interface EnrolmentDeps {
  database: Database;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
}

/** Enrolment tokens (links and deployment keys) and device credentials: a label and 256 random bits. */
export const ENROLMENT_TOKEN_PREFIX = 'pal_enr_';
export const DEVICE_TOKEN_PREFIX = 'pal_dev_';
/** What lists show of a token: its label and the first 8 random characters. */
const SHOWN_PREFIX_LENGTH = ENROLMENT_TOKEN_PREFIX.length + 8;
const HOUR_MS = 3_600_000;
/** The event log's actor for writes a device makes by enrolling. */
const ENROLMENT_ACTOR = { id: null, username: 'enrolment' } as const;

const newToken = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** The one answer for every unusable token, so a caller learns nothing about why. */
const invalidLink = () => new AppError('not_found', 'This enrolment link is invalid or has expired.');

function presentDevice(row: repo.DeviceRow): Device {
  return {
    id: row.id,
    name: row.name,
    os: row.os,
    userId: row.userId,
    username: row.username,
    connstatus: row.connstatus,
    enrolledVia: row.enrolledVia,
    enrolledAt: row.enrolledAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  };
}

function presentKey(row: repo.TokenRow, groupNames: Map<string, string>): DeploymentKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    // A group deleted since the key was made is no longer added, so it is not listed either.
    autoGroups: row.autoGroupIds.flatMap((id) => {
      const name = groupNames.get(id);
      return name === undefined ? [] : [{ id, name }];
    }),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    maxUses: row.maxUses,
    uses: row.uses,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A link as the event log keeps it: never the token or its hash. */
const linkForLog = (row: repo.TokenRow, username: string) => ({
  id: row.id,
  kind: row.kind,
  username,
  prefix: row.prefix,
  expiresAt: row.expiresAt?.toISOString() ?? null,
});

/** Where a user stands, from their devices (of the listed method) and the link their row shows. */
function enrolmentState(deviceCount: number, link: repo.LinkRow | undefined, now: number): EnrolmentState {
  if (deviceCount > 0) return 'enrolled';
  if (!link || link.usedAt) return 'not-invited';
  return link.expiresAt.getTime() > now ? 'pending' : 'expired';
}

export function listUserDevices(deps: EnrolmentDeps, ctx: Ctx, query: UserDevicesQuery) {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) => {
    const page = await repo.listEndUsers(tx, tenantId, query);
    const ids = page.items.map((user) => user.id);
    const deviceRows = await repo.devicesOfUsers(tx, tenantId, ids, query.method);
    const links = await repo.latestLinks(tx, tenantId, ids, repo.linkKindsFor(query.method));
    const byUser = new Map<string, Device[]>();
    for (const row of deviceRows) {
      if (!row.userId) continue;
      byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), presentDevice(row)]);
    }
    const now = Date.now();
    const items = page.items.map((user): UserDevices => {
      const userDevices = byUser.get(user.id) ?? [];
      const link = links.get(user.id);
      return {
        id: user.id,
        username: user.username,
        fullname: `${user.firstname} ${user.lastname}`.trim(),
        connstatus: user.connstatus as UserDevices['connstatus'],
        state: enrolmentState(userDevices.length, link, now),
        link: link
          ? {
              id: link.id,
              kind: link.kind,
              prefix: link.prefix,
              expiresAt: link.expiresAt.toISOString(),
              usedAt: link.usedAt?.toISOString() ?? null,
            }
          : null,
        devices: userDevices,
      };
    });
    return { items, total: page.total };
  });
}

const EXPORT_BATCH = 1000;

/**
 * Streams every end user matching the list (`q`, `filter`, `method`, order) as CSV, a page of users at a time:
 * one line per device, and one line with empty device columns for a user without devices. Formula cells are
 * prefixed with `'`.
 */
export function exportUserDevices(deps: EnrolmentDeps, ctx: Ctx, query: UserDevicesExportQuery): Readable {
  const out = stringify({ header: true, columns: [...USER_DEVICES_CSV_COLUMNS], escape_formulas: true });
  (async () => {
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const page = await listUserDevices(deps, ctx, { ...query, limit: EXPORT_BATCH, offset });
      for (const user of page.items) {
        const person = { username: user.username, fullname: user.fullname, state: user.state };
        const lines = user.devices.length
          ? user.devices.map((device) => ({
              ...person,
              device: device.name,
              os: device.os,
              connstatus: device.connstatus,
              enrolledVia: device.enrolledVia,
              enrolledAt: device.enrolledAt,
              lastSeenAt: device.lastSeenAt ?? '',
            }))
          : [person];
        for (const line of lines) {
          if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
        }
      }
      if (page.items.length < EXPORT_BATCH) break;
    }
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

/**
 * A one-off link for an end user of the tenant, replacing the user's pending link of the same kind. The token is
 * answered once; with `sendEmail` the link is mailed to the user after the write is committed.
 */
export async function createUserLink(
  deps: EnrolmentDeps,
  ctx: Ctx,
  userId: string,
  input: z.output<typeof UserLinkInput>,
): Promise<CreatedLink> {
  const tenantId = ctx.tenant.id;
  const token = newToken(ENROLMENT_TOKEN_PREFIX);
  const { row, user } = await deps.database.tenantTx(tenantId, async (tx) => {
    const user = await repo.findEndUser(tx, tenantId, userId);
    if (!user) throw notFound('User');
    if (user.isDisabled) throw userDisabled();
    if (input.sendEmail && !mailAddress(user)) {
      throw invalid([{ path: 'body.sendEmail', message: 'validation.email' }]);
    }
    const replaced = await repo.revokePendingLinks(tx, tenantId, userId, [input.kind]);
    const row = await repo.insertToken(tx, {
      tenantId,
      kind: input.kind,
      userId,
      name: user.username,
      tokenHash: hashToken(token),
      prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
      expiresAt: new Date(Date.now() + input.ttlHours * HOUR_MS),
      maxUses: 1,
      createdBy: ctx.actor.id,
    });
    await recordEvent(tx, ctx, {
      action: 'enrolment.link.create',
      objectType: 'enrolment_link',
      objectId: row.id,
      objectName: user.username,
      ...(replaced.length > 0 ? { before: { pendingLink: linkForLog(replaced[0], user.username) } } : {}),
      after: { ...linkForLog(row, user.username), isEmailed: input.sendEmail },
    });
    return { row, user };
  });
  const url = `${deps.config.publicUrl}/verify/wg/${token}`;
  if (input.sendEmail) {
    const expires = row.expiresAt!.toUTCString();
    await deps.mailer.send({
      to: mailAddress(user)!,
      subject: `Set up Palisade on your ${input.kind === 'agentless' ? 'browser' : 'device'}`,
      text: `Hello ${user.firstname || user.username},\n\n${ctx.tenant.name} invites you to connect ${
        input.kind === 'agentless' ? 'your browser' : 'a device'
      } to Palisade. Open this link on the device (it works once, until ${expires}):\n${url}\n`,
    });
  }
  return { id: row.id, token, url, expiresAt: row.expiresAt!.toISOString() };
}

/** Where a user's mail goes: the e-mail address, else a username that is one. */
function mailAddress(user: { email: string; username: string }): string | null {
  if (user.email.includes('@')) return user.email;
  return user.username.includes('@') ? user.username : null;
}

/** A disabled end user gets no link and enrols no device. */
const userDisabled = () =>
  new AppError('conflict', 'This user is disabled.', [
    { path: 'params.id', message: 'validation.userDisabled' },
  ]);

/** Revokes an end user's pending links (both kinds); answers how many. */
export function revokeUserLink(deps: EnrolmentDeps, ctx: Ctx, userId: string) {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) => {
    const user = await repo.findEndUser(tx, tenantId, userId);
    if (!user) throw notFound('User');
    return { revoked: await revokeLinksOf(tx, ctx, user) };
  });
}

/**
 * Revokes the pending links of many end users in the caller's transaction (a bulk disable, whose one event
 * counts them); answers how many.
 */
export const revokeLinksOfUsers = (tx: Tx, tenantId: string, userIds: string[]) =>
  repo.revokePendingLinksOfUsers(tx, tenantId, userIds, ['link', 'agentless']);

/**
 * Revokes an end user's pending links (both kinds) in the caller's transaction, each in the event log (disabling
 * the user revokes them too); answers how many.
 */
export async function revokeLinksOf(tx: Tx, ctx: Ctx, user: { id: string; username: string }) {
  const tenantId = ctx.tenant.id;
  const revoked = await repo.revokePendingLinks(tx, tenantId, user.id, ['link', 'agentless']);
  for (const row of revoked) {
    await recordEvent(tx, ctx, {
      action: 'enrolment.link.revoke',
      objectType: 'enrolment_link',
      objectId: row.id,
      objectName: user.username,
      before: linkForLog(row, user.username),
      after: { ...linkForLog(row, user.username), revokedAt: row.revokedAt?.toISOString() ?? null },
    });
  }
  return revoked.length;
}

/** Removes devices by id (they must enrol again); unknown ids and other tenants' ids are skipped. */
export async function deleteDevices(deps: EnrolmentDeps, ctx: Ctx, ids: string[]) {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) => {
    const before = await repo.getDevices(tx, tenantId, [...new Set(ids)]);
    // The compiled policy names the devices of policy groups: every instance decides the next request on the
    // new state. Marked before the delete, so the policy version is locked first, as every policy change does.
    if (before.length > 0) await markPolicyChanged(tx, tenantId);
    const policyGroups = await repo.policyGroupsOfDevices(
      tx,
      tenantId,
      before.map((row) => row.id),
    );
    const deleted = new Set(
      await repo.deleteDevices(
        tx,
        tenantId,
        before.map((row) => row.id),
      ),
    );
    for (const row of before.filter((device) => deleted.has(device.id))) {
      await recordEvent(tx, ctx, {
        action: 'device.delete',
        objectType: 'device',
        objectId: row.id,
        objectName: row.name,
        // The device leaves its policy groups with it (the database cascades); the event says which.
        before: { ...presentDevice(row), policyGroups: policyGroups.get(row.id) ?? [] },
      });
    }
    return { deleted: deleted.size };
  });
}

/** Devices for a picker (policy groups, the simulator). */
export function listDeviceOptions(deps: EnrolmentDeps, ctx: Ctx, query: DeviceOptionsQuery) {
  return deps.database.tenantTx(ctx.tenant.id, (tx) =>
    repo.deviceOptions(tx, ctx.tenant.id, query.q || undefined, DEVICE_OPTIONS_LIMIT),
  );
}

/** One device, named as pickers name it (policy tests, the simulator). */
export async function getDevice(deps: EnrolmentDeps, ctx: Ctx, id: string) {
  const device = await deps.database.tenantTx(ctx.tenant.id, (tx) =>
    repo.deviceOption(tx, ctx.tenant.id, id),
  );
  if (!device) throw notFound('Device');
  return device;
}

/**
 * The end user a device of the tenant belongs to, read in the caller's transaction: null for a device without
 * one (a deployment key's), an unknown or deleted device, or a name that is no device id. The simulator decides a
 * device's traffic as its owner's, with the owner's groups.
 */
export async function deviceOwnerOf(tx: Tx, tenantId: string, deviceId: string): Promise<string | null> {
  if (!Uuid.safeParse(deviceId).success) return null;
  return repo.endUserOwnerOf(tx, tenantId, deviceId);
}

export function listDeploymentKeys(deps: EnrolmentDeps, ctx: Ctx) {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) => {
    const rows = await repo.listKeys(tx, tenantId);
    const groupIds = [...new Set(rows.flatMap((row) => row.autoGroupIds))];
    const names = new Map(
      (await repo.findGroups(tx, tenantId, groupIds)).map((group) => [group.id, group.name]),
    );
    return rows.map((row) => presentKey(row, names));
  });
}

/** A reusable deployment key; its auto-groups must be groups of the tenant. The token is answered once. */
export function createDeploymentKey(
  deps: EnrolmentDeps,
  ctx: Ctx,
  input: z.output<typeof DeploymentKeyInput>,
): Promise<{ key: DeploymentKey; token: string }> {
  const tenantId = ctx.tenant.id;
  const autoGroupIds = [...new Set(input.autoGroupIds)];
  const token = newToken(ENROLMENT_TOKEN_PREFIX);
  return deps.database.tenantTx(tenantId, async (tx) => {
    const found = await repo.findGroups(tx, tenantId, autoGroupIds);
    if (found.length !== autoGroupIds.length) {
      throw invalid([{ path: 'body.autoGroupIds', message: 'validation.unknownGroup' }]);
    }
    const row = await repo.insertToken(tx, {
      tenantId,
      kind: 'rmm',
      userId: null,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
      autoGroupIds,
      expiresAt:
        input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * ONE_DAY_MS),
      maxUses: input.maxUses,
      createdBy: ctx.actor.id,
    });
    const key = presentKey(row, new Map(found.map((group) => [group.id, group.name])));
    await recordEvent(tx, ctx, {
      action: 'enrolment.key.create',
      objectType: 'deployment_key',
      objectId: row.id,
      objectName: row.name,
      after: key,
    });
    return { key, token };
  });
}

/** Revokes a deployment key (idempotent: a revoked key is answered as it is); devices it enrolled stay. */
export function revokeDeploymentKey(deps: EnrolmentDeps, ctx: Ctx, id: string) {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) => {
    const row = await repo.getKey(tx, tenantId, id);
    if (!row) throw notFound('Deployment key');
    const names = new Map(
      (await repo.findGroups(tx, tenantId, row.autoGroupIds)).map((group) => [group.id, group.name]),
    );
    if (row.revokedAt) return presentKey(row, names);
    const after = presentKey(await repo.revokeKey(tx, tenantId, id), names);
    await recordEvent(tx, ctx, {
      action: 'enrolment.key.revoke',
      objectType: 'deployment_key',
      objectId: row.id,
      objectName: row.name,
      before: presentKey(row, names),
      after,
    });
    return after;
  });
}

// ---- Public: the enrolment page and the client ----

/** A token that can still enrol a device, found across tenants by its hash; otherwise the one 404. */
async function openToken(database: Database, token: string) {
  if (!token.startsWith(ENROLMENT_TOKEN_PREFIX)) throw invalidLink();
  const found = await repo.findTokenByHash(database.db, hashToken(token));
  const now = Date.now();
  if (
    !found ||
    found.token.revokedAt ||
    (found.token.expiresAt && found.token.expiresAt.getTime() <= now) ||
    (found.token.maxUses !== null && found.token.uses >= found.token.maxUses)
  ) {
    throw invalidLink();
  }
  return found;
}

export async function enrolmentInfo(
  deps: EnrolmentDeps,
  token: string,
): Promise<z.output<typeof EnrolmentInfo>> {
  const found = await openToken(deps.database, token);
  return {
    tenant: found.tenantName,
    tenantDisplayName: found.tenantDisplayName,
    kind: found.token.kind,
    username: found.token.kind === 'rmm' ? null : found.username,
    expiresAt: found.token.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Enrols a device: counts a use of the token (a link is then used up), registers the device for the link's
 * user — or, with a deployment key, for the end user whose username the agent reports (if any), who is then
 * added to the key's auto-groups — and answers the device's own credential, once. Once committed, the enrolment
 * is a device event (`enrolled`, device-events.ts).
 */
export async function enrol(
  deps: EnrolmentDeps,
  input: z.output<typeof EnrolInput>,
  ip: string | null,
  log?: FastifyBaseLogger,
): Promise<z.output<typeof Enrolled>> {
  const found = await openToken(deps.database, input.token);
  const tenant = { id: found.token.tenantId, name: found.tenantName, kind: found.tenantKind as TenantKind };
  const deviceToken = newToken(DEVICE_TOKEN_PREFIX);
  const { answer, event } = await deps.database.tenantTx(tenant.id, async (tx) => {
    const claimed = await repo.claimToken(tx, tenant.id, found.token.id);
    if (!claimed) throw invalidLink();
    let user: { id: string; username: string; isDisabled: boolean } | null = null;
    if (claimed.kind !== 'rmm' && claimed.userId && found.username !== null) {
      user = await repo.findEndUser(tx, tenant.id, claimed.userId);
    } else if (claimed.kind === 'rmm' && input.username) {
      user = await repo.findEndUserByUsername(tx, tenant.id, input.username);
    }
    // A disabled user connects nothing (the transaction rolls back: the link is not used up).
    if (user?.isDisabled) throw new AppError('account_suspended', 'This account is disabled.');
    const wgHost = input.publicKey ? await wireguardHostFor(tx, tenant.id, input.publicKey) : null;
    // Under the tenant's rules: waiting for approval, and with a key lifetime.
    const initial = await devices.initialState(tx, tenant.id);
    const deviceId = await repo.insertDevice(tx, {
      state: initial.state,
      keyExpiresAt: wgHost === null ? null : initial.keyExpiresAt,
      tenantId: tenant.id,
      userId: user?.id ?? null,
      name: input.device.name,
      os: input.device.os,
      enrolledVia: claimed.kind,
      enrolmentId: claimed.id,
      tokenHash: hashToken(deviceToken),
      wgPublicKey: input.publicKey ?? null,
      wgHost,
    });
    // A new WireGuard peer changes every gateway's interface: a new bundle reaches them within a second.
    if (wgHost !== null && initial.state === 'active') await markPolicyChanged(tx, tenant.id);
    let addedToGroups: string[] = [];
    if (claimed.kind === 'rmm' && user) {
      const added = await repo.addUserToGroups(tx, tenant.id, user.id, claimed.autoGroupIds);
      addedToGroups = (await repo.findGroups(tx, tenant.id, added)).map((group) => group.name).sort();
    }
    const [device] = await repo.getDevices(tx, tenant.id, [deviceId]);
    await recordEvent(
      tx,
      { tenant, ip, actor: ENROLMENT_ACTOR },
      {
        action: 'device.enrol',
        objectType: 'device',
        objectId: deviceId,
        objectName: device.name,
        after: {
          ...presentDevice(device),
          enrolment: { id: claimed.id, kind: claimed.kind, name: claimed.name, prefix: claimed.prefix },
          addedToGroups,
        },
      },
    );
    // A device waiting for approval learns its tunnel at the check-in after it is approved.
    const wireguard =
      wgHost === null || initial.state !== 'active' ? null : await deviceWireguard(tx, tenant.id, wgHost);
    // The configuration handed out now is the device's: later changes make it outdated (devices.service.ts).
    if (wireguard)
      await devices.recordConfigFingerprint(
        tx,
        tenant.id,
        deviceId,
        configFingerprint(wireguard.config),
        new Date(),
      );
    const event = {
      action: 'enrolled' as const,
      deviceId,
      userId: user?.id ?? null,
      detail: enrolledDetail({
        via: claimed.kind,
        keyName: claimed.name,
        os: device.os,
        state: initial.state,
        hasKey: wgHost !== null,
      }),
    };
    return {
      answer: { deviceId, tenant: tenant.name, userId: user?.id ?? null, deviceToken, wireguard },
      event,
    };
  });
  await recordDeviceEvents(deps.database, tenant.id, [event], log);
  return answer;
}

/** A tunnel host number for a device's WireGuard key: 400 when another device of the tenant has the key. */
async function wireguardHostFor(tx: Tx, tenantId: string, publicKey: string): Promise<number> {
  if (await repo.wireguardKeyTaken(tx, tenantId, publicKey)) {
    throw invalid([{ path: 'body.publicKey', message: 'validation.wireguardKeyTaken' }]);
  }
  const host = await repo.nextWireguardHost(tx, tenantId);
  if (host === null) {
    throw new AppError('conflict', 'No tunnel address is free.', [
      { path: 'body.publicKey', message: 'validation.tooMany' },
    ]);
  }
  return host;
}
