import { sessionEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors';
import { route } from '../../lib/route';
import { partnerBranding } from '../tenants/partner-settings.service';
import type { SessionDeps } from './session.service';
import * as service from './session.service';

const meta = (request: { ip: string; headers: Record<string, unknown> }) => ({
  ip: request.ip ?? null,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
});

/** Sign-in, sign-up, verification, sessions and the signed-in user's own settings. */
export function sessionRoutes(app: FastifyInstance, deps: SessionDeps) {
  const { database } = deps;
  route(app, database, e.signIn, ({ body, request }) => service.signIn(deps, body, meta(request)));
  route(app, database, e.signInOtp, ({ body, request }) => service.signInOtp(deps, body, meta(request)));
  route(app, database, e.getSession, ({ ctx }) =>
    service.presentSession(deps, ctx.actor.tenantId, ctx.actor.id, ctx.actor.sessionHash),
  );
  route(app, database, e.openTarget, ({ ctx, body }) => service.openTarget(deps, ctx, body.edit));
  route(app, database, e.signOut, async ({ ctx }) => {
    await service.signOut(deps, ctx.actor);
    return { ok: true as const };
  });
  route(app, database, e.signUp, ({ body }) => service.signUp(deps, body));
  route(app, database, e.resendVerification, async ({ body }) => {
    await service.resendVerification(deps, body.email);
    return { ok: true as const };
  });
  route(app, database, e.verifyUser, ({ params, request }) =>
    service.verifyUser(deps, params.transid, request.ip ?? null),
  );
  route(app, database, e.transStatus, ({ params }) => service.transStatus(deps, params.transid));
  // The partner's settings and logo are the tenants module's (partner-settings.service.ts).
  route(app, database, e.partnerBranding, async ({ params }) => {
    const branding = await partnerBranding(database, params.name);
    if (!branding) throw notFound('Partner');
    return branding;
  });
  route(app, database, e.updateProfile, ({ ctx, body }) => service.updateProfile(deps, ctx.actor, body));
  route(app, database, e.changePassword, ({ ctx, body }) => service.changePassword(deps, ctx, body));
  route(app, database, e.startTotp, ({ ctx }) => service.startTotp(deps, ctx.actor));
  route(app, database, e.confirmTotp, async ({ ctx, body }) => {
    await service.confirmTotp(deps, ctx.actor, body.code);
    return { ok: true as const };
  });
  route(app, database, e.disableTotp, async ({ ctx, body }) => {
    await service.disableTotp(deps, ctx.actor, body.code);
    return { ok: true as const };
  });
}
