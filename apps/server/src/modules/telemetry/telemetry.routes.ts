import { telemetryEndpoints as t } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import type { ChangeBus } from '../../lib/change-bus';
import { route } from '../../lib/route';
import * as service from './telemetry.service';

/**
 * The event screens' calls (`/events/connection-status`, `/events/device-events`, and the decisions a chart
 * drills down to), their lists and CSV; the dashboards' overview, top lists and private-access summary; and the
 * live view's server-sent events.
 */
export function telemetryRoutes(app: FastifyInstance, database: Database, changes: ChangeBus) {
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
  route(app, database, t.listDecisionEvents, ({ ctx, query }) =>
    service.listDecisionEvents(database, ctx, query),
  );
  route(app, database, t.exportDecisionEvents, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="decisions-${ctx.tenant.name}.csv"`)
      .send(service.exportDecisionEvents(database, ctx, query)),
  );
  route(app, database, t.telemetryOverview, ({ ctx, query }) =>
    service.telemetryOverview(database, ctx, query),
  );
  route(app, database, t.telemetryTop, ({ ctx, query }) => service.telemetryTop(database, ctx, query));
  route(app, database, t.privateAccessSummary, ({ ctx, query }) =>
    service.privateAccessSummary(database, ctx, query),
  );
  route(app, database, t.liveTelemetry, ({ ctx, query, request, reply }) => {
    // Server-sent events: one `tick` a second until the client goes (the page hidden, closed, navigated away) or
    // the credential stops acting (signed out, suspended, revoked): then an `end` event with the error envelope
    // the request would be refused with now, and the stream closes.
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write('retry: 3000\n\n');
    let id = 0;
    const stop = service.liveTicks(
      changes,
      ctx,
      () => app.auth.recheck(request, 'dashboard:view'),
      {
        onTick: (tick) => reply.raw.write(`id: ${++id}\nevent: tick\ndata: ${JSON.stringify(tick)}\n\n`),
        onEnd: (refusal) => reply.raw.end(`event: end\ndata: ${JSON.stringify(refusal)}\n\n`),
      },
      query.source,
    );
    request.raw.once('close', stop);
    return reply;
  });
}
