import {
  type GwLan,
  INTERNAL_DEVICE_ACTIVE_MS,
  type InternalDevice,
  type InternalDeviceListQuery,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx, GatewayCtx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import * as repo from './internal-devices.repository';
import { macVendor } from './mac-vendor';

/**
 * Internal devices (contracts: internal-devices.ts): the hosts site gateways see behind them, kept from each
 * heartbeat's `lan` report, and the administrators' list, detail and "forget" over them.
 */

type Lan = z.output<typeof GwLan>;

export function presentInternalDevice(row: repo.InternalDeviceRow, now = Date.now()): InternalDevice {
  return {
    id: row.id,
    gatewayId: row.gatewayId,
    gatewayName: row.gatewayName,
    mac: row.mac,
    ip: row.ip,
    hostname: row.hostname,
    vendor: row.vendor,
    source: row.source,
    interface: row.interface,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    isActive: now - row.lastSeenAt.getTime() <= INTERNAL_DEVICE_ACTIVE_MS,
  };
}

/**
 * The hosts of a report, one per MAC address: a host both leased and in the ARP table is one host — its DHCP
 * lease names it (and is its source), its ARP entry gives the address it uses now.
 */
export function mergeNeighbours(neighbours: Lan['neighbours']): repo.SeenHost[] {
  const hosts = new Map<string, repo.SeenHost>();
  for (const n of neighbours) {
    const seen = hosts.get(n.mac);
    const hostname = n.hostname || null;
    if (!seen) {
      hosts.set(n.mac, {
        mac: n.mac,
        ip: n.ip,
        hostname,
        vendor: macVendor(n.mac),
        source: n.source,
        interface: n.interface || null,
      });
      continue;
    }
    if (n.source === 'arp' && seen.source === 'dhcp') seen.ip = n.ip;
    if (n.source === 'dhcp') seen.source = 'dhcp';
    seen.hostname ??= hostname;
    seen.interface ??= n.interface || null;
  }
  return [...hosts.values()];
}

/**
 * Keeps the hosts a gateway's heartbeat reports, in the heartbeat's transaction: only a site gateway's (a
 * cybernode's `lan` is ignored). Answers how many were new.
 */
export async function recordNeighbours(tx: Tx, gw: GatewayCtx, lan: Lan | undefined): Promise<number> {
  if (!lan || lan.neighbours.length === 0) return 0;
  if (!(await repo.isActiveSiteGateway(tx, gw.tenantId, gw.gatewayId))) return 0;
  return repo.upsertHosts(tx, gw.tenantId, gw.gatewayId, mergeNeighbours(lan.neighbours));
}

/** A page of the tenant's internal devices. */
export async function listInternalDevices(database: Database, ctx: Ctx, query: InternalDeviceListQuery) {
  const page = await database.tenantTx(ctx.tenant.id, (tx) =>
    repo.listInternalDevices(tx, ctx.tenant.id, query),
  );
  const now = Date.now();
  return { ...page, items: page.items.map((row) => presentInternalDevice(row, now)) };
}

export async function getInternalDevice(database: Database, ctx: Ctx, id: string) {
  const row = await database.tenantTx(ctx.tenant.id, (tx) => repo.getInternalDevice(tx, ctx.tenant.id, id));
  if (!row) throw notFound('Internal device');
  return presentInternalDevice(row);
}

/** Forgets a host (it comes back as new when its gateway sees it again); logged. */
export function forgetInternalDevice(database: Database, ctx: Ctx, id: string) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const row = await repo.getInternalDevice(tx, tenantId, id);
    if (!row || !(await repo.deleteInternalDevice(tx, tenantId, id))) throw notFound('Internal device');
    await recordEvent(tx, ctx, {
      action: 'internalDevice.forget',
      objectType: 'internalDevice',
      objectId: row.id,
      objectName: row.hostname ?? row.mac,
      before: {
        hostname: row.hostname,
        mac: row.mac,
        ip: row.ip,
        vendor: row.vendor,
        gatewayName: row.gatewayName,
      },
      after: null,
    });
    return { ok: true as const };
  });
}
