import { groupEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './groups.service';

/** Groups of a tenant, their members and where they are used. */
export function groupsRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.listGroups, ({ ctx, query }) => service.listGroups(database, ctx, query));
  route(app, database, e.getGroup, ({ ctx, params }) => service.getGroup(database, ctx, params.id));
  route(app, database, e.createGroup, ({ ctx, body }) => service.createGroup(database, ctx, body));
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
}
