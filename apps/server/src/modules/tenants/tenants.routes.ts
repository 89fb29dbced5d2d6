import { tenantEndpoints as e, MAX_LOGO_BYTES, partnerEndpoints as p } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors';
import { route } from '../../lib/route';
import * as settings from './partner-settings.service';
import * as deletion from './tenant-deletion.service';
import * as service from './tenants.service';

/**
 * `GET/PUT subscriber/tenant/{name}` and `GET tenant/primaryuser` (spec §7), and the partner console's tenants
 * (`/partner/{tenant}/tenants`).
 */
export function tenantsRoutes(app: FastifyInstance, deps: service.PartnerDeps) {
  const { database } = deps;
  route(app, database, e.getTenant, ({ ctx }) => service.getTenant(database, ctx));
  route(app, database, e.updateTenant, ({ ctx, body }) => service.updateTenant(database, ctx, body));
  route(app, database, e.primaryUser, ({ ctx }) => service.primaryUser(database, ctx));
  route(app, database, p.listManagedTenants, ({ ctx, query }) =>
    service.listManagedTenants(database, ctx, query),
  );
  route(app, database, p.createManagedTenant, ({ ctx, body }) =>
    service.createManagedTenant(deps, ctx, body),
  );
  route(app, database, p.setManagedTenantStatus, ({ ctx, params, body }) =>
    service.setManagedTenantStatus(database, ctx, params.id, body.status),
  );
  route(app, database, p.moveManagedTenant, ({ ctx, params, body }) =>
    service.moveManagedTenant(database, ctx, params.id, body.partner),
  );
  route(app, database, p.deleteManagedTenant, ({ ctx, params }) =>
    deletion.deleteManagedTenant(database, ctx, params.id),
  );
  route(app, database, p.restoreManagedTenant, ({ ctx, params }) =>
    deletion.restoreManagedTenant(database, ctx, params.id),
  );
  partnerSettingsRoutes(app, deps);
}

const IMAGE_TYPES = /^image\/[a-z0-9.+-]+$/i;

/** Partner info (spec §7 `partner/info/{id}`), a partner's settings and its logo, uploaded and served. */
function partnerSettingsRoutes(app: FastifyInstance, { database }: service.PartnerDeps) {
  route(app, database, p.partnerInfo, ({ ctx, params }) => settings.getPartnerInfo(database, ctx, params.id));
  route(app, database, p.getPartnerSettings, ({ ctx }) => settings.getPartnerSettings(database, ctx));
  route(app, database, p.updatePartnerSettings, ({ ctx, body }) =>
    settings.updatePartnerSettings(database, ctx, body),
  );
  // Any image type is taken as raw bytes (up to four times the logo limit, so that a file slightly too large gets a
  // translated 400 on body.logo rather than a bare 413); the service accepts only PNG, JPEG and WebP by their bytes.
  if (!app.hasContentTypeParser(IMAGE_TYPES)) {
    app.addContentTypeParser(
      IMAGE_TYPES,
      { parseAs: 'buffer', bodyLimit: 4 * MAX_LOGO_BYTES },
      (_request, body, done) => done(null, body),
    );
  }
  route(app, database, p.uploadPartnerLogo, ({ ctx, request }) =>
    settings.uploadPartnerLogo(database, ctx, request.headers['content-type'], request.body),
  );
  route(app, database, p.deletePartnerLogo, ({ ctx }) => settings.deletePartnerLogo(database, ctx));
  route(app, database, p.partnerLogo, async ({ params, request, reply }) => {
    const logo = await settings.partnerLogo(database, params.name);
    if (!logo) throw notFound('Logo');
    const etag = `"${logo.sha256}"`;
    reply
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      // The address carries the version (?v=): a day in caches, then revalidated by the ETag.
      .header('cache-control', 'public, max-age=86400')
      .header('last-modified', logo.updatedAt.toUTCString());
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(logo.contentType).send(logo.bytes);
  });
}
