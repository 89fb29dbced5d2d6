import { type ManagedTenant, TENANT_DELETION_GRACE_MS } from '@palisade/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { AppError, invalid } from '../../lib/errors';
import * as repo from './partner-settings.repository';
import { managed, pendingDeletion, presentManaged } from './tenants.service';

/** How often the purge looks for tenants whose grace period is over. */
export const TENANT_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** At most this many tenants per run (the next run takes the rest). */
const PURGE_BATCH = 100;

/**
 * Schedules a managed customer tenant's deletion: it stops working at once (as suspended: its sessions and API
 * tokens stop, its people cannot sign in) and is purged with everything it holds after the grace period, unless
 * it is restored. Recorded in both logs.
 */
export async function deleteManagedTenant(
  database: Database,
  ctx: Ctx,
  id: string,
  now = new Date(),
): Promise<ManagedTenant> {
  const before = presentManaged(await managed(database, ctx, id));
  if (before.kind !== 'customer') {
    throw invalid([{ path: 'params.id', message: 'validation.customerOnly' }]);
  }
  if (before.status === 'deletion_scheduled') throw pendingDeletion();
  const dueAt = new Date(now.getTime() + TENANT_DELETION_GRACE_MS);
  await database.db.transaction(async (tx) => {
    await repo.markDeletion(tx, id, dueAt);
    // Its open live views and its gateways' long-polls end at once, on every instance.
    await announceCredentialChange(tx, `tenant:${id}`);
    const event = {
      action: 'tenant.delete' as const,
      objectType: 'tenant' as const,
      objectId: id,
      objectName: before.name,
      before: { status: before.status },
      after: { status: 'deletion_scheduled', deletionDueAt: dueAt.toISOString() },
    };
    await recordEvent(tx, ctx, event);
    await recordEvent(tx, { ...ctx, tenant: { id } }, event);
  });
  return presentManaged(await managed(database, ctx, id));
}

/** Cancels a scheduled deletion within the grace period: the tenant is back as it was before. Both logs. */
export async function restoreManagedTenant(database: Database, ctx: Ctx, id: string): Promise<ManagedTenant> {
  const before = presentManaged(await managed(database, ctx, id));
  if (before.status !== 'deletion_scheduled') {
    throw new AppError('conflict', 'This tenant is not scheduled for deletion.');
  }
  await database.db.transaction(async (tx) => {
    await repo.clearDeletion(tx, id);
    const event = {
      action: 'tenant.restore' as const,
      objectType: 'tenant' as const,
      objectId: id,
      objectName: before.name,
      before: { status: before.status, deletionDueAt: before.deletionDueAt },
    };
    await recordEvent(tx, ctx, event);
    await recordEvent(tx, { ...ctx, tenant: { id } }, event);
  });
  return presentManaged(await managed(database, ctx, id));
}

/**
 * Purges the tenants whose grace period is over at `now`: each goes with everything it holds, and the purge is
 * recorded in its partner's log (the platform's for a tenant without a partner), by the system. Answers the names
 * purged. The clock is a parameter so that tests move it.
 */
export async function purgeDueTenants(database: Database, now: Date): Promise<string[]> {
  const { db } = database;
  const due = await repo.dueForPurge(db, now, PURGE_BATCH);
  const platformId = due.some((t) => !t.parentId) ? await repo.platformTenantId(db) : null;
  const purged: string[] = [];
  for (const tenant of due) {
    const logTo = tenant.parentId ?? platformId;
    const removed = await db.transaction(async (tx) => {
      if (!(await repo.purgeTenant(tx, tenant.id, now))) return false;
      if (logTo) {
        await recordEvent(
          tx,
          { tenant: { id: logTo }, actor: null, ip: null },
          {
            action: 'tenant.purge',
            objectType: 'tenant',
            objectId: tenant.id,
            objectName: tenant.name,
            before: { name: tenant.name, deletionDueAt: tenant.deletionDueAt.toISOString() },
          },
        );
      }
      return true;
    });
    if (removed) purged.push(tenant.name);
  }
  return purged;
}

/** Runs {@link purgeDueTenants} hourly (the grace period is days: an hour late is no matter). Answers the stop. */
export function startTenantPurge(database: Database, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    database.background(
      purgeDueTenants(database, new Date())
        .then((purged) => {
          if (purged.length > 0) log.info({ purged }, 'purged tenants past their deletion grace period');
        })
        .catch((err: unknown) => log.error({ err }, 'tenant purge failed')),
    );
  }, TENANT_PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
