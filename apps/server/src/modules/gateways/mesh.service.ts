import {
  type ErrorDetail,
  type GatewayKind,
  type Mesh,
  type MeshSettingsInput,
  SITE_GATEWAY_KINDS,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid } from '../../lib/errors';
import { loadEngineInput, markPolicyChanged } from '../policy-core/policy-core.service';
import * as repo from './gateways.repository';
import { type GatewayDeps, statusOf } from './gateways.service';
import * as meshRepo from './mesh.repository';
import { deviceAllowedIps, loadMeshPlan, routedNetworks } from './mesh-plan';
import * as accessRepo from './private-access.repository';
import { privateAccessOf } from './private-access.service';

/**
 * `/devices/spa/mesh` (contracts: mesh.ts): the tenant's private-access mesh as the screen shows it — its
 * settings and the WireGuard peers and AllowedIPs it makes (mesh-plan.ts, the same plan the bundles carry) — and
 * saving it, which moves the policy version so every gateway of the mesh gets its new peers within a second.
 */

const HUB_KINDS: readonly GatewayKind[] = ['cybernode', 'virtual'];
const isSiteKind = (kind: GatewayKind) => (SITE_GATEWAY_KINDS as readonly GatewayKind[]).includes(kind);

type Settings = Pick<meshRepo.MeshRow, 'enabled' | 'hubId' | 'siteIds' | 'userIds' | 'groupIds'> & {
  updatedAt: Date | null;
};
const OFF: Settings = {
  enabled: false,
  hubId: null,
  siteIds: [],
  userIds: [],
  groupIds: [],
  updatedAt: null,
};

async function view(tx: Tx, tenantId: string, settings: Settings): Promise<Mesh> {
  const enrolled = (await repo.activeGateways(tx, tenantId)).filter((g) => g.publicKey && g.wgAddress);
  const named = new Map<string, repo.GatewayRow>();
  for (const id of [...(settings.hubId ? [settings.hubId] : []), ...settings.siteIds]) {
    const row = await repo.getGateway(tx, tenantId, id);
    if (row && !row.retiredAt) named.set(id, row);
  }
  const routes = routedNetworks(await loadEngineInput(tx, tenantId), enrolled);
  const access = await privateAccessOf(tx, tenantId);
  const plan = await loadMeshPlan(
    tx,
    tenantId,
    [...new Set([...enrolled, ...named.values()])],
    routes,
    access,
  );
  const names = await accessRepo.audienceNames(tx, tenantId, settings.userIds, settings.groupIds);
  const users = new Set(names.users.keys());
  if (names.groups.size > 0) {
    for (const member of (await accessRepo.audienceDevices(tx, tenantId)).members) {
      if (names.groups.has(String(member.group_id))) users.add(String(member.user_id));
    }
  }
  const hub = settings.hubId ? named.get(settings.hubId) : undefined;
  const sites = settings.siteIds
    .flatMap((id) => (named.has(id) ? [named.get(id) as repo.GatewayRow] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
  const now = Date.now();
  const node = (row: repo.GatewayRow) => ({
    id: row.id,
    name: row.name,
    kind: row.kind,
    status: statusOf(row, now),
    address: row.wgAddress,
    endpoint: row.endpoint,
    networks: plan.networks.get(row.id) ?? [],
    peers: (plan.peers.get(row.id) ?? []).map(({ persistentKeepalive: _, ...peer }) => peer),
    takesDevices: !plan.relayed.has(row.id),
  });
  const memberAllowed = settings.enabled
    ? deviceAllowedIps(enrolled, routes, undefined, plan, true)
    : new Map();
  return {
    enabled: settings.enabled,
    hub: hub ? { id: hub.id, name: hub.name } : null,
    sites: sites.map((row) => ({ id: row.id, name: row.name })),
    users: [...names.users].map(([id, name]) => ({ id, name })),
    groups: [...names.groups].map(([id, name]) => ({ id, name })),
    updatedAt: settings.updatedAt?.toISOString() ?? null,
    nodes: settings.enabled ? [...(hub ? [hub] : []), ...sites].map(node) : [],
    members: {
      users: users.size,
      devices: plan.memberHosts.size,
      allowedIps: enrolled
        .filter((gateway) => memberAllowed.has(gateway.id))
        .map((gateway) => ({
          gatewayId: gateway.id,
          name: gateway.name,
          allowedIps: memberAllowed.get(gateway.id) as string[],
        })),
    },
    issues: plan.issues,
  };
}

export function getMesh(deps: GatewayDeps, ctx: Ctx): Promise<Mesh> {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) =>
    view(tx, tenantId, (await meshRepo.meshOf(tx, tenantId)) ?? OFF),
  );
}

/** Checks what the settings name: a cybernode as hub, site gateways, users and groups of the tenant. */
async function check(tx: Tx, tenantId: string, input: z.output<typeof MeshSettingsInput>) {
  const details: ErrorDetail[] = [];
  if (input.hubId !== null) {
    const hub = await repo.getGateway(tx, tenantId, input.hubId);
    if (!hub || hub.retiredAt || !HUB_KINDS.includes(hub.kind))
      details.push({ path: 'body.hubId', message: 'validation.meshHub' });
  }
  for (const [i, id] of input.siteIds.entries()) {
    const site = await repo.getGateway(tx, tenantId, id);
    if (!site || site.retiredAt || !isSiteKind(site.kind))
      details.push({ path: `body.siteIds.${i}`, message: 'validation.meshSite' });
  }
  if (input.enabled && input.siteIds.length === 0)
    details.push({ path: 'body.siteIds', message: 'validation.required' });
  const names = await accessRepo.audienceNames(tx, tenantId, input.userIds, input.groupIds);
  input.userIds.forEach((id, i) => {
    if (!names.users.has(id)) details.push({ path: `body.userIds.${i}`, message: 'validation.unknownUser' });
  });
  input.groupIds.forEach((id, i) => {
    if (!names.groups.has(id))
      details.push({ path: `body.groupIds.${i}`, message: 'validation.unknownGroup' });
  });
  if (details.length > 0) throw invalid(details);
}

const summary = (mesh: Mesh) => ({
  enabled: mesh.enabled,
  hub: mesh.hub?.name ?? null,
  sites: mesh.sites.map((site) => site.name),
  users: mesh.users.map((user) => user.name),
  groups: mesh.groups.map((group) => group.name),
});

export function saveMesh(
  deps: GatewayDeps,
  ctx: Ctx,
  input: z.output<typeof MeshSettingsInput>,
): Promise<Mesh> {
  const tenantId = ctx.tenant.id;
  return deps.database.tenantTx(tenantId, async (tx) => {
    await check(tx, tenantId, input);
    const before = await view(tx, tenantId, (await meshRepo.meshOf(tx, tenantId)) ?? OFF);
    const settings = {
      tenantId,
      enabled: input.enabled,
      hubId: input.hubId,
      siteIds: [...new Set(input.siteIds)],
      userIds: [...new Set(input.userIds)],
      groupIds: [...new Set(input.groupIds)],
    };
    await meshRepo.saveMesh(tx, settings);
    await markPolicyChanged(tx, tenantId);
    const after = await view(tx, tenantId, { ...settings, updatedAt: new Date() });
    await recordEvent(tx, ctx, {
      action: 'mesh.update',
      objectType: 'mesh',
      objectId: null,
      objectName: 'mesh',
      before: summary(before),
      after: summary(after),
    });
    return after;
  });
}
