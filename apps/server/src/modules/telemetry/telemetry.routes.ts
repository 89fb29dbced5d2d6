import { telemetryEndpoints as t } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './telemetry.service';

/** The event screens' calls: `/events/connection-status` and `/events/device-events`, their lists and CSV. */
export function telemetryRoutes(app: FastifyInstance, database: Database) {
  route(app, database, t.listConnectionEvents, ({ ctx, query }) =>
    service.listConnectionEvents(database, ctx, query),
  );
  route(app, database, t.exportConnectionEvents, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="connection-events-${ctx.tenant.name}.csv"`)
      .send(service.exportConnectionEvents(database, ctx, query)),
  );
  route(app, database, t.listDeviceEvents, ({ ctx, query }) =>
    service.listDeviceEvents(database, ctx, query),
  );
  route(app, database, t.exportDeviceEvents, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="device-events-${ctx.tenant.name}.csv"`)
      .send(service.exportDeviceEvents(database, ctx, query)),
  );
}
