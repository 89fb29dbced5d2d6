import type { TelemetryLine } from '@palisade/contracts';
import { type RosterEntry, synthesiseConnections, synthesiseDecisions } from '@palisade/policy-engine';
import type { Database } from '../db/client';
import type { Ctx } from '../lib/context';
import { listDevices } from '../modules/enrolment/devices.service';
import * as gateways from '../modules/gateways/gateways.service';
import { createPolicyCache } from '../modules/policy-core/policy-core.service';
import { ingestGatewayEvents } from '../modules/telemetry/telemetry.service';

/**
 * A week of what the demo's gateways saw, made the way `apps/gateway --simulate-traffic` makes it (the traffic
 * generator of @palisade/policy-engine: plausible requests of the tenant's users and devices, decided by the real
 * engine against the tenant's policy) and posted through the same ingest path the gateways post to.
 */

const WEEK_MS = 7 * 86_400_000;
/** Decisions over the week: enough for every chart and top list, quick to load on PGlite. */
const DECISIONS = 20_000;
const BATCH = 5_000;

export async function seedTelemetry(database: Database, ctx: Ctx, now = Date.now()): Promise<void> {
  const policies = createPolicyCache(database);
  const deps: gateways.GatewayDeps = {
    database,
    policies,
    bundles: gateways.createBundleCache(),
    changes: { subscribe: () => () => {}, close: async () => {} },
  };
  try {
    const live = await policies.compiledFor(ctx.tenant.id);
    const bundle = await gateways.ensureBundle(deps, ctx.tenant.id);
    // The devices with a tunnel (and their users' groups), then the other active endpoints of the demo.
    const roster: RosterEntry[] = bundle.identities.map((identity) => ({ ...identity }));
    const endpoints = await listDevices(database, ctx, {
      kind: 'endpoint',
      state: 'active',
      limit: 200,
      offset: 0,
      order: 'asc',
      sort: 'name',
      withTotal: 'false',
    });
    for (const device of endpoints.items) {
      if (!roster.some((entry) => entry.deviceId === device.id)) {
        roster.push({ deviceId: device.id, userId: device.userId, groups: [] });
      }
    }
    const page = await gateways.listGateways(deps, ctx, { limit: 50, offset: 0, order: 'asc', sort: 'name' });
    const enrolled = page.items.filter(
      (gateway) => gateway.status !== 'pending' && gateway.status !== 'retired',
    );
    if (enrolled.length === 0) return;
    // Each device's traffic goes through one gateway, as a tunnel does.
    const gatewayOf = (deviceId: string | null | undefined) => {
      const key = deviceId ?? '';
      let hash = 0;
      for (const c of key) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
      return enrolled[hash % enrolled.length].id;
    };
    const batches = new Map<string, TelemetryLine[]>();
    const flush = async (gatewayId: string) => {
      const events = batches.get(gatewayId) ?? [];
      batches.set(gatewayId, []);
      if (events.length > 0) {
        await ingestGatewayEvents(database, { tenantId: ctx.tenant.id, gatewayId }, events, now);
      }
    };
    const add = async (event: TelemetryLine, deviceId: string | null | undefined) => {
      const gatewayId = gatewayOf(deviceId);
      const events = batches.get(gatewayId) ?? [];
      events.push(event);
      batches.set(gatewayId, events);
      if (events.length >= BATCH) await flush(gatewayId);
    };
    const start = now - WEEK_MS;
    for (const event of synthesiseDecisions({
      engine: live.compiled,
      roster,
      seed: `demo-${ctx.tenant.name}`,
      start,
      end: now - 60_000,
      count: DECISIONS,
    })) {
      await add(event as TelemetryLine, event.data.deviceId);
    }
    for (const event of synthesiseConnections({
      roster,
      seed: `demo-${ctx.tenant.name}`,
      start,
      end: now - 60_000,
    })) {
      await add(event as TelemetryLine, event.data.deviceId);
    }
    for (const gatewayId of batches.keys()) await flush(gatewayId);
  } finally {
    policies.close();
  }
}
