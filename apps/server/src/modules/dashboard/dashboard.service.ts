import type { Database } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { recentEvents } from '../events/events.service';
import * as repo from './dashboard.repository';

/** The global SASE dashboard: counts straight from the database and the latest admin events. */
export function summary(database: Database, ctx: Ctx) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const c = await repo.tenantCounts(tx, ctx.tenant.id);
    const events = await recentEvents(tx, ctx.tenant.id, 10);
    return {
      users: c.users,
      connectedUsers: c.connected,
      privateAccessUsers: c.prv,
      internetAccessUsers: c.sia,
      xdrUsers: c.xdr,
      administrators: c.admins,
      groups: c.groups,
      recentEvents: events.map((ev) => ({
        id: ev.id,
        at: ev.at.toISOString(),
        actor: ev.actorName,
        action: ev.action,
        objectType: ev.objectType,
        objectId: ev.objectId,
        objectName: ev.objectName,
        ip: ev.ip,
      })),
    };
  });
}
