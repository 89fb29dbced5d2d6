import { roleEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './roles.service';

/** Custom roles and who holds which role (`/users/roles`). */
export function rolesRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listRoles, ({ ctx }) => service.listRoles(database, ctx));
  route(app, database, e.createRole, ({ ctx, body }) => service.createRole(database, ctx, body));
  route(app, database, e.updateRole, ({ ctx, params, body }) =>
    service.updateRole(database, ctx, params.id, body),
  );
  route(app, database, e.deleteRole, ({ ctx, params }) => service.deleteRole(database, ctx, params.id));
  route(app, database, e.listAssignments, ({ ctx, query }) => service.listAssignments(database, ctx, query));
  route(app, database, e.exportAssignments, ({ ctx, query, reply }) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="role-assignments-${ctx.tenant.name}.csv"`)
      .send(service.exportAssignments(database, ctx, query)),
  );
  route(app, database, e.assignRole, ({ ctx, params, body }) =>
    service.assignRole(database, ctx, params.id, body),
  );
}
