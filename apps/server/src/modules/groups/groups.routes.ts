import { groupEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { acceptCsvBodies, csvText } from '../../lib/csv';
import { route } from '../../lib/route';
import * as csv from './group-csv.service';
import * as service from './groups.service';

/** Groups of a tenant, their members and where they are used; CSV export and import. */
export function groupsRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listGroups, ({ ctx, query }) => service.listGroups(database, ctx, query));
  route(app, database, e.getGroup, ({ ctx, params }) => service.getGroup(database, ctx, params.id));
  route(app, database, e.createGroup, ({ ctx, body }) => service.createGroup(database, ctx, body));
  route(app, database, e.copyGroup, ({ ctx, params, body }) =>
    service.copyGroup(database, ctx, params.id, body),
  );
  route(app, database, e.updateGroup, ({ ctx, params, body }) =>
    service.updateGroup(database, ctx, params.id, body),
  );
  route(app, database, e.deleteGroups, ({ ctx, body }) => service.deleteGroups(database, ctx, body.ids));
  route(app, database, e.listGroupMembers, ({ ctx, params, query }) =>
    service.listMembers(database, ctx, params.id, query),
  );
  route(app, database, e.addGroupMembers, ({ ctx, params, body }) =>
    service.addMembers(database, ctx, params.id, body.userIds),
  );
  route(app, database, e.removeGroupMembers, ({ ctx, params, body }) =>
    service.removeMembers(database, ctx, params.id, body.userIds),
  );
  route(app, database, e.getGroupUsage, ({ ctx, params }) => service.getUsage(database, ctx, params.id));

  route(app, database, e.exportGroups, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="groups-${ctx.tenant.name}.csv"`)
      .send(csv.exportGroups(database, ctx, query)),
  );
  route(app, database, e.exportGroupMembers, async ({ ctx, params, query, reply }) => {
    const stream = await csv.exportGroupMembers(database, ctx, params.id, query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="group-members-${ctx.tenant.name}.csv"`)
      .send(stream);
  });
  // CSV uploads arrive as text; the import job reads them row by row.
  acceptCsvBodies(app);
  route(app, database, e.importGroups, async ({ ctx, query, request }) => {
    const { job } = await csv.startGroupImport(database, ctx, csvText(request.body), {
      mode: query.mode,
      isDryRun: query.dryRun === 'true',
    });
    return job;
  });
  route(app, database, e.groupImportJob, ({ ctx, params }) =>
    csv.getGroupImportJob(database, ctx, params.id),
  );
}
