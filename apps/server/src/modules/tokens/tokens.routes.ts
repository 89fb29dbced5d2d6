import { tokenEndpoints as e, needsReauthentication } from '@palisade/contracts';
import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { forbidden } from '../../lib/errors';
import { route } from '../../lib/route';
import { confirmIdentity, type SessionDeps } from '../session/session.service';
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
export function tokensRoutes(app: FastifyInstance, deps: SessionDeps) {
  const { database } = deps;
  app.register(async (scope) => {
    scope.addHook('onRoute', (options) => {
      options.preValidation = [
        options.preValidation ?? [],
        administratorsOnly as preValidationHookHandler,
      ].flat();
    });
    route(scope, database, e.listTokens, ({ ctx, query }) => service.listTokens(database, ctx, query));
    // A token that outlives the session by far (over 30 days, or never expiring) asks for the password or a TOTP
    // code again first: an unattended or borrowed session cannot mint one.
    route(scope, database, e.createToken, async ({ ctx, body }) => {
      if (needsReauthentication(body.expiresInDays)) {
        await confirmIdentity(deps, ctx.actor, body.reauth, 'body.reauth');
      }
      return service.createToken(database, ctx, body);
    });
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
