import { userBulkEndpoints as b, userEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { acceptCsvBodies, csvText } from '../../lib/csv';
import { route } from '../../lib/route';
import * as bulk from './user-bulk.service';
import * as bulkJobs from './user-bulk-jobs.service';
import * as service from './users.service';

/** End users of a tenant (spec §7 `subscriber/user/{tenant}`) and the group look-up. */
export function usersRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listUsers, ({ ctx, query }) => service.listUsers(database, ctx, query));
  route(app, database, e.getUser, ({ ctx, params }) => service.getUser(database, ctx, params.id));
  route(app, database, e.createUser, ({ ctx, body }) => service.createUser(database, ctx, body));
  route(app, database, e.updateUser, ({ ctx, params, body }) =>
    service.updateUser(database, ctx, params.id, body),
  );
  route(app, database, e.setUserStatus, ({ ctx, params, body }) =>
    service.setUserStatus(database, ctx, params.id, body),
  );
  route(app, database, e.deleteUsers, ({ ctx, body }) => service.deleteUsers(database, ctx, body.ids));
  route(app, database, e.listGroupOptions, ({ ctx }) => service.listGroupOptions(database, ctx));

  // Bulk changes and deletes of a page's ids or of a whole search: answered as a job (see user-bulk-jobs).
  route(
    app,
    database,
    b.bulkUsers,
    async ({ ctx, body }) => (await bulkJobs.startBulk(database, ctx, body)).job,
  );
  route(
    app,
    database,
    b.bulkDeleteUsers,
    async ({ ctx, body }) => (await bulkJobs.startBulk(database, ctx, { ...body, action: 'delete' })).job,
  );
  route(app, database, b.bulkJob, ({ ctx, params }) => bulkJobs.getBulkJob(database, ctx, params.id));
  route(app, database, b.undoBulkJob, ({ ctx, params }) => bulkJobs.undoBulk(database, ctx, params.id));
  route(app, database, b.exportUsers, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="users-${ctx.tenant.name}.csv"`)
      .send(bulk.exportUsers(database, ctx, query)),
  );
  // CSV uploads arrive as text; the import job reads them row by row.
  acceptCsvBodies(app);
  route(app, database, b.importUsers, async ({ ctx, query, request }) => {
    const { job } = await bulk.startImport(database, ctx, csvText(request.body), {
      mode: query.mode,
      isDryRun: query.dryRun === 'true',
    });
    return job;
  });
  route(app, database, b.importJob, ({ ctx, params }) => bulk.getImportJob(database, ctx, params.id));
}
