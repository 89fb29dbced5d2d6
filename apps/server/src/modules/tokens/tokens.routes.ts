import { tokenEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { Database } from '../../db/client';
import { forbidden } from '../../lib/errors';
import { route } from '../../lib/route';
import * as service from './tokens.service';

/**
 * Only administrators (usertype ≠ 0) have API tokens. Checked right after the session (route()'s own
 * preValidation), so an end user gets 403 before its input is looked at — the usual 401 → 403 → 400 order.
 */
async function administratorsOnly(request: FastifyRequest) {
  if (!request.ctx || !('actor' in request.ctx) || request.ctx.actor.usertype === 0) throw forbidden();
}

/**
 * The signed-in administrator's API tokens (`/me/tokens`; calling them with a token is refused in auth), and the
 * tenant-wide list and revocation (`/tokens/{tenant}`, `roles:update`).
 */
export function tokensRoutes(app: FastifyInstance, database: Database) {
  app.register(async (scope) => {
    scope.addHook('onRoute', (options) => {
      options.preValidation = [
        options.preValidation ?? [],
        administratorsOnly as preValidationHookHandler,
      ].flat();
    });
    route(scope, database, e.listTokens, ({ ctx, query }) => service.listTokens(database, ctx, query));
    route(scope, database, e.createToken, ({ ctx, body }) => service.createToken(database, ctx, body));
    route(scope, database, e.revokeToken, ({ ctx, params }) => service.revokeToken(database, ctx, params.id));
  });
  // Every administrator's tokens of a tenant, for whoever manages its administrators.
  route(app, database, e.listTenantTokens, ({ ctx, query }) =>
    service.listTenantTokens(database, ctx, query),
  );
  route(app, database, e.revokeTenantToken, ({ ctx, params }) =>
    service.revokeTenantToken(database, ctx, params.id),
  );
}
