import { dashboardEndpoints as e } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Database, queryRows } from '../../db/client';
import { route } from '../../lib/route';
import { recentEvents } from '../events/events.repository';

interface Counts {
  users: number;
  connected: number;
  prv: number;
  sia: number;
  xdr: number;
  admins: number;
  groups: number;
}

/** The global SASE dashboard: counts straight from the database and the latest admin events. */
export function dashboardRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.summary, ({ ctx }) =>
    database.tenantTx(ctx.tenant.id, async (tx) => {
      const t = ctx.tenant.id;
      const [c] = await queryRows<Counts>(
        tx,
        sql`
        select
          count(*) filter (where usertype = 0)::int as users,
          count(*) filter (where usertype = 0 and connstatus = 'connected')::int as connected,
          count(*) filter (where usertype = 0 and isprvaccess)::int as prv,
          count(*) filter (where usertype = 0 and issiauser)::int as sia,
          count(*) filter (where usertype = 0 and isxdrenabled)::int as xdr,
          count(*) filter (where usertype <> 0)::int as admins,
          (select count(*) from groups where tenant_id = ${t})::int as groups
        from users where tenant_id = ${t}`,
      );
      const events = await recentEvents(tx, t, 10);
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
    }),
  );
}
