import { tenantEndpoints as e, partnerEndpoints as p } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route';
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
}
