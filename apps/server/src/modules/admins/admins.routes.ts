import { adminEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route';
import * as service from './admins.service';

/** Administrators of a tenant: invitations, suspension, removal. */
export function adminsRoutes(app: FastifyInstance, deps: service.AdminDeps) {
  const { database } = deps;
  route(app, database, e.listAdmins, ({ ctx, query }) => service.listAdmins(deps, ctx, query));
  route(app, database, e.inviteAdmin, ({ ctx, body }) => service.inviteAdmin(deps, ctx, body));
  route(app, database, e.suspendAdmin, ({ ctx, params, body }) =>
    service.suspendAdmin(deps, ctx, params.id, body.suspended),
  );
  route(app, database, e.removeAdmin, ({ ctx, params }) => service.removeAdmin(deps, ctx, params.id));
  route(app, database, e.getInvitation, ({ params }) => service.getInvitation(deps, params.transid));
  route(app, database, e.acceptInvitation, ({ params, body }) =>
    service.acceptInvitation(deps, params.transid, body.password),
  );
}
