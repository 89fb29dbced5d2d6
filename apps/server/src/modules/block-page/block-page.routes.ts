import { blockPageEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route';
import type { BlockPageDeps } from './block-page.service';
import * as service from './block-page.service';

/**
 * The block page's public API (spec §2 `/blockaccess…`: no session) and the administrators' access requests
 * (`/policy/access-requests/{tenant}`).
 */
export function blockPageRoutes(app: FastifyInstance, deps: BlockPageDeps) {
  const { database } = deps;
  route(app, database, e.blockPage, ({ params, query }) =>
    service.blockPageInfo(deps, params.type, null, query),
  );
  route(app, database, e.blockPageRule, ({ params, query }) =>
    service.blockPageInfo(deps, params.type, params.id, query),
  );
  route(app, database, e.requestAccess, ({ params, body, request }) =>
    service.requestAccess(deps, params, body, request.ip ?? null),
  );
  route(app, database, e.listAccessRequests, ({ ctx, query }) =>
    service.listAccessRequests(database, ctx, query),
  );
  route(app, database, e.countAccessRequests, ({ ctx }) => service.countAccessRequests(database, ctx));
  route(app, database, e.approveAccessRequest, ({ ctx, params, body }) =>
    service.approveAccessRequest(deps, ctx, params.id, body.minutes),
  );
  route(app, database, e.declineAccessRequest, ({ ctx, params, body }) =>
    service.declineAccessRequest(deps, ctx, params.id, body.note),
  );
}
