import { userBulkEndpoints as b, userEndpoints as e, MAX_IMPORT_BYTES } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { invalid } from '../../lib/errors';
import { route } from '../../lib/route';
import * as bulk from './user-bulk.service';
import * as service from './users.service';

/** End users of a tenant (spec §7 `subscriber/user/{tenant}`) and the group look-up. */
export function usersRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listUsers, ({ ctx, query }) => service.listUsers(database, ctx, query));
  route(app, database, e.getUser, ({ ctx, params }) => service.getUser(database, ctx, params.id));
  route(app, database, e.createUser, ({ ctx, body }) => service.createUser(database, ctx, body));
  route(app, database, e.updateUser, ({ ctx, params, body }) =>
    service.updateUser(database, ctx, params.id, body),
  );
  route(app, database, e.deleteUsers, ({ ctx, body }) => service.deleteUsers(database, ctx, body.ids));
  route(app, database, e.listGroupOptions, ({ ctx }) => service.listGroupOptions(database, ctx));

  route(app, database, b.bulkUsers, ({ ctx, body }) => bulk.bulkUsers(database, ctx, body));
  route(app, database, b.exportUsers, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="users-${ctx.tenant.name}.csv"`)
      .send(bulk.exportUsers(database, ctx, query)),
  );
  // CSV uploads arrive as text; the import job reads them row by row.
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: MAX_IMPORT_BYTES },
    (_request, body, done) => done(null, body),
  );
  route(app, database, b.importUsers, async ({ ctx, query, request }) => {
    if (typeof request.body !== 'string' || request.body.trim() === '') {
      throw invalid([{ path: 'body', message: 'validation.csvEmpty' }]);
    }
    const { job } = await bulk.startImport(database, ctx, request.body, query.mode);
    return job;
  });
  route(app, database, b.importJob, ({ ctx, params }) => bulk.getImportJob(database, ctx, params.id));
}
