import { eventEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './events.service';

/** The admin event log (`/events/admin`): list, one event with before/after, CSV export, facets, retention. */
export function eventsRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listAdminEvents, ({ ctx, query }) => service.listEvents(database, ctx, query));
  route(app, database, e.adminEventFacets, ({ ctx }) => service.eventFacets(database, ctx));
  route(app, database, e.getEventRetention, ({ ctx }) => service.getRetention(database, ctx));
  route(app, database, e.updateEventRetention, ({ ctx, body }) =>
    service.updateRetention(database, ctx, body.days),
  );
  route(app, database, e.exportAdminEvents, async ({ ctx, query, reply }) => {
    const csv = await service.exportEvents(database, ctx, query);
    const day = new Date().toISOString().slice(0, 10);
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="admin-events-${ctx.tenant.name}-${day}.csv"`);
    // A stream is sent as is (no serialiser runs on it); the contract describes its text as a string.
    return csv as unknown as string;
  });
  route(app, database, e.getAdminEvent, ({ ctx, params }) => service.getEvent(database, ctx, params.id));
}
