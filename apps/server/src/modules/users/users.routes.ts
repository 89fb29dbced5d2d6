import { userEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
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
}
