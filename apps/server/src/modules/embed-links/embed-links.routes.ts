import { embedLinkEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { route } from '../../lib/route';
import type { SessionDeps } from '../session/session.service';
import * as service from './embed-links.service';

/** Makes and revokes links only as a person with a session: 403 before the input is looked at (401 → 403 → 400). */
async function peopleOnly(request: FastifyRequest) {
  if (request.ctx && 'actor' in request.ctx) service.assertMayMakeLinks(request.ctx);
}

/**
 * The tenant's embed links (`/embed-links/{tenant}`: list, create, revoke) and, for a view opened with one, what
 * it opens (`/embed/session`, the link's own credential).
 */
export function embedLinksRoutes(app: FastifyInstance, deps: SessionDeps) {
  const { database } = deps;
  app.register(async (scope) => {
    scope.addHook('onRoute', (options) => {
      options.preValidation = [options.preValidation ?? [], peopleOnly as preValidationHookHandler].flat();
    });
    route(scope, database, e.listEmbedLinks, ({ ctx, query }) => service.listLinks(deps, ctx, query));
    route(scope, database, e.createEmbedLink, ({ ctx, body }) => service.createLink(deps, ctx, body));
    route(scope, database, e.revokeEmbedLink, ({ ctx, params }) => service.revokeLink(deps, ctx, params.id));
  });
  route(app, database, e.embedSession, ({ ctx }) => service.embedSession(deps, ctx));
}
