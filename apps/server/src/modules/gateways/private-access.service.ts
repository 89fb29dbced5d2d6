import {
  cidrContains,
  type ErrorDetail,
  isAllowedPrivateRange,
  isIpv4,
  normaliseCidr,
  type PrivateService,
  type PrivateServiceInput,
  SITE_GATEWAY_KINDS,
  type SiteConfig,
  type ZtnaRule,
  type ZtnaRuleInput,
} from '@palisade/contracts';
import type { ZtnaEntry } from '@palisade/gateway-config';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import { markPolicyChanged } from '../policy-core/policy-core.service';
import * as repo from './gateways.repository';
import * as access from './private-access.repository';
import * as siteRepo from './site-config.repository';

/**
 * Private services and ZTNA firewall rules (contracts: private-access.ts): their screens' calls, and what the
 * bundles make of them — each site gateway's ZTNA ruleset and each device's AllowedIPs towards it.
 */

type ServiceData = z.output<typeof PrivateServiceInput>;
type RuleData = z.output<typeof ZtnaRuleInput>;

/** A device's tunnel address: host `host` of 100.64.0.0/16. */
const tunnelAddress = (host: number) => `100.64.${host >> 8}.${host & 255}`;

const named = (ids: string[], names: Map<string, string>) =>
  ids.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id) as string }] : []));

async function presenter(tx: Tx, tenantId: string, rows: { userIds: string[]; groupIds: string[] }[]) {
  const gateways = new Map((await access.gatewayNames(tx, tenantId)).map((g) => [g.id, g.name]));
  const names = await access.audienceNames(
    tx,
    tenantId,
    [...new Set(rows.flatMap((r) => r.userIds))],
    [...new Set(rows.flatMap((r) => r.groupIds))],
  );
  return (row: { gatewayId: string; userIds: string[]; groupIds: string[]; updatedAt: Date }) => ({
    gatewayName: gateways.get(row.gatewayId) ?? '',
    users: named(row.userIds, names.users),
    groups: named(row.groupIds, names.groups),
    updatedAt: row.updatedAt.toISOString(),
  });
}

const presentService = (row: access.ServiceRow, common: ReturnType<Awaited<ReturnType<typeof presenter>>>) =>
  ({
    id: row.id,
    name: row.name,
    gatewayId: row.gatewayId,
    address: row.address,
    protocol: row.protocol,
    ports: row.ports,
    enabled: row.enabled,
    ...common,
  }) satisfies PrivateService;

const presentRule = (row: access.ZtnaRuleRow, common: ReturnType<Awaited<ReturnType<typeof presenter>>>) =>
  ({
    id: row.id,
    name: row.name,
    gatewayId: row.gatewayId,
    destination: row.destination,
    protocol: row.protocol,
    ports: row.ports,
    enabled: row.enabled,
    ...common,
  }) satisfies ZtnaRule;

export function listPrivateServices(database: Database, ctx: Ctx) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const rows = await access.listServices(tx, ctx.tenant.id);
    const present = await presenter(tx, ctx.tenant.id, rows);
    return { items: rows.map((row) => presentService(row, present(row))) };
  });
}

export function listZtnaRules(database: Database, ctx: Ctx) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const rows = await access.listRules(tx, ctx.tenant.id);
    const present = await presenter(tx, ctx.tenant.id, rows);
    return { items: rows.map((row) => presentRule(row, present(row))) };
  });
}

/** The LAN and VLAN networks of a site's configuration. */
export function siteNetworks(config: SiteConfig | null | undefined): string[] {
  if (!config) return [];
  return [...config.lans, ...config.vlans].flatMap((net) => {
    const network = normaliseCidr(`${net.address}/${net.prefix}`);
    return network ? [network] : [];
  });
}

/**
 * Checks what an entry names: a site gateway of the tenant, an internal address (in one of the site's LAN or
 * VLAN networks once it has any, else a private range), a unique name, users and groups of the tenant.
 */
async function check(
  tx: Tx,
  ctx: Ctx,
  kind: access.EntryKind,
  id: string | null,
  input: { name: string; gatewayId: string; userIds: string[]; groupIds: string[] },
  target: { field: string; value: string },
): Promise<void> {
  const tenantId = ctx.tenant.id;
  const details: ErrorDetail[] = [];
  const gateway = await repo.getGateway(tx, tenantId, input.gatewayId);
  if (!gateway || gateway.retiredAt || !(SITE_GATEWAY_KINDS as readonly string[]).includes(gateway.kind)) {
    details.push({ path: 'body.gatewayId', message: 'validation.siteGateway' });
  } else {
    const networks = siteNetworks((await siteRepo.siteConfigOf(tx, tenantId, gateway.id))?.config);
    const isInside =
      networks.length > 0
        ? networks.some((network) => cidrContains(network, target.value))
        : isAllowedPrivateRange(isIpv4(target.value) ? `${target.value}/32` : target.value);
    if (!isInside)
      details.push({
        path: `body.${target.field}`,
        message: networks.length > 0 ? 'validation.forwardOutsideLan' : 'validation.privateRange',
      });
  }
  if (await access.nameTaken(tx, kind, tenantId, input.name, id))
    details.push({ path: 'body.name', message: 'validation.nameTaken' });
  const names = await access.audienceNames(tx, tenantId, input.userIds, input.groupIds);
  input.userIds.forEach((userId, i) => {
    if (!names.users.has(userId))
      details.push({ path: `body.userIds.${i}`, message: 'validation.unknownUser' });
  });
  input.groupIds.forEach((groupId, i) => {
    if (!names.groups.has(groupId))
      details.push({ path: `body.groupIds.${i}`, message: 'validation.unknownGroup' });
  });
  if (details.length > 0) throw invalid(details);
}

const ACTIONS = {
  service: {
    create: 'privateService.create',
    update: 'privateService.update',
    delete: 'privateService.delete',
  },
  rule: { create: 'ztnaRule.create', update: 'ztnaRule.update', delete: 'ztnaRule.delete' },
} as const;

/** Saves an entry: what it guards and who reaches it change every site gateway's bundle, so the version moves. */
async function saveEntry<Row extends { id: string; name: string }, Shown>(
  database: Database,
  ctx: Ctx,
  kind: access.EntryKind,
  id: string | null,
  write: (tx: Tx) => Promise<string>,
  load: (tx: Tx, id: string) => Promise<Row | null>,
  show: (tx: Tx, row: Row) => Promise<Shown>,
  validate: (tx: Tx) => Promise<void>,
): Promise<Shown> {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const before = id === null ? null : await load(tx, id);
    if (id !== null && !before) throw notFound(kind === 'service' ? 'Private service' : 'ZTNA rule');
    await validate(tx);
    await markPolicyChanged(tx, tenantId);
    const savedId = await write(tx);
    const after = (await load(tx, savedId)) as Row;
    const shown = await show(tx, after);
    await recordEvent(tx, ctx, {
      action: ACTIONS[kind][id === null ? 'create' : 'update'],
      objectType: kind === 'service' ? 'privateService' : 'ztnaRule',
      objectId: savedId,
      objectName: after.name,
      before: before ? await show(tx, before) : null,
      after: shown,
    });
    return shown;
  });
}

const showService = async (tx: Tx, tenantId: string, row: access.ServiceRow) =>
  presentService(row, (await presenter(tx, tenantId, [row]))(row));
const showRule = async (tx: Tx, tenantId: string, row: access.ZtnaRuleRow) =>
  presentRule(row, (await presenter(tx, tenantId, [row]))(row));

export function savePrivateService(database: Database, ctx: Ctx, id: string | null, input: ServiceData) {
  const tenantId = ctx.tenant.id;
  return saveEntry(
    database,
    ctx,
    'service',
    id,
    (tx) =>
      access.saveService(tx, id, {
        tenantId,
        name: input.name,
        gatewayId: input.gatewayId,
        address: input.address,
        protocol: input.protocol,
        ports: input.ports,
        userIds: [...new Set(input.userIds)],
        groupIds: [...new Set(input.groupIds)],
        enabled: input.enabled,
      }),
    (tx, entryId) => access.getService(tx, tenantId, entryId),
    (tx, row) => showService(tx, tenantId, row),
    (tx) => check(tx, ctx, 'service', id, input, { field: 'address', value: input.address }),
  );
}

export function saveZtnaRule(database: Database, ctx: Ctx, id: string | null, input: RuleData) {
  const tenantId = ctx.tenant.id;
  return saveEntry(
    database,
    ctx,
    'rule',
    id,
    (tx) =>
      access.saveRule(tx, id, {
        tenantId,
        name: input.name,
        gatewayId: input.gatewayId,
        destination: input.destination,
        protocol: input.protocol,
        ports: input.ports,
        userIds: [...new Set(input.userIds)],
        groupIds: [...new Set(input.groupIds)],
        enabled: input.enabled,
      }),
    (tx, entryId) => access.getRule(tx, tenantId, entryId),
    (tx, row) => showRule(tx, tenantId, row),
    (tx) => check(tx, ctx, 'rule', id, input, { field: 'destination', value: input.destination }),
  );
}

export function deleteEntry(database: Database, ctx: Ctx, kind: access.EntryKind, id: string) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const before =
      kind === 'service'
        ? await access.getService(tx, tenantId, id).then((row) => row && showService(tx, tenantId, row))
        : await access.getRule(tx, tenantId, id).then((row) => row && showRule(tx, tenantId, row));
    if (!before) throw notFound(kind === 'service' ? 'Private service' : 'ZTNA rule');
    await markPolicyChanged(tx, tenantId);
    await access.deleteEntry(tx, kind, tenantId, id);
    await recordEvent(tx, ctx, {
      action: ACTIONS[kind].delete,
      objectType: kind === 'service' ? 'privateService' : 'ztnaRule',
      objectId: id,
      objectName: before.name,
      before,
      after: null,
    });
    return { ok: true as const };
  });
}

// ─── What the bundles make of them ──────────────────────────────────────────────────────────────────────────

/** Every enabled entry of the tenant with the tunnel addresses of the devices of the users and groups it names. */
export interface PrivateAccess {
  /** Per site gateway: its ZTNA firewall entries. */
  entries: Map<string, ZtnaEntry[]>;
  /** Per device tunnel host: per gateway, the hosts and networks it may reach there (its extra AllowedIPs). */
  routes: Map<number, Map<string, string[]>>;
}

export async function privateAccessOf(tx: Tx, tenantId: string): Promise<PrivateAccess> {
  const services = (await access.listServices(tx, tenantId)).filter((row) => row.enabled);
  const rules = (await access.listRules(tx, tenantId)).filter((row) => row.enabled);
  const entries = new Map<string, ZtnaEntry[]>();
  const routes = new Map<number, Map<string, string[]>>();
  if (services.length === 0 && rules.length === 0) return { entries, routes };
  const { devices, members } = await access.audienceDevices(tx, tenantId);
  const hostsOfUser = new Map<string, number[]>();
  for (const device of devices) {
    const user = String(device.user_id);
    hostsOfUser.set(user, [...(hostsOfUser.get(user) ?? []), Number(device.host)]);
  }
  const usersOfGroup = new Map<string, string[]>();
  for (const member of members) {
    const group = String(member.group_id);
    usersOfGroup.set(group, [...(usersOfGroup.get(group) ?? []), String(member.user_id)]);
  }
  const all = [
    ...services.map((s) => ({ ...s, destination: s.address, ports: s.ports as string | null })),
    ...rules,
  ];
  for (const entry of all) {
    const users = new Set([...entry.userIds, ...entry.groupIds.flatMap((g) => usersOfGroup.get(g) ?? [])]);
    const hosts = [...users].flatMap((user) => hostsOfUser.get(user) ?? []).sort((a, b) => a - b);
    const destination = isIpv4(entry.destination) ? `${entry.destination}/32` : entry.destination;
    entries.set(entry.gatewayId, [
      ...(entries.get(entry.gatewayId) ?? []),
      {
        id: entry.id,
        destination: entry.destination,
        protocol: entry.protocol,
        ports: entry.protocol === 'any' ? null : entry.ports,
        sources: hosts.map(tunnelAddress),
      },
    ]);
    for (const host of hosts) {
      const byGateway = routes.get(host) ?? new Map<string, string[]>();
      const networks = byGateway.get(entry.gatewayId) ?? [];
      if (!networks.includes(destination)) networks.push(destination);
      byGateway.set(entry.gatewayId, networks);
      routes.set(host, byGateway);
    }
  }
  return { entries, routes };
}
