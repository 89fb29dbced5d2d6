import { tenantFeatureEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route';
import * as service from './features.service';
import * as managed from './managed-features.service';

/**
 * A managed tenant's feature flags (`/partner/{tenant}/tenants/{id}/features`), the tenant's configuration flags
 * (`/tenant/{tenant}/configurations`) and both as the web reads them (`/tenant/{tenant}/flags`). `deps` carries the
 * other modules' guards of configuration flags (module-list.ts).
 */
export function featuresRoutes(app: FastifyInstance, deps: service.ConfigurationsDeps) {
  const { database } = deps;
  route(app, database, e.getManagedTenantFeatures, ({ ctx, params }) =>
    managed.getManagedTenantFeatures(deps, ctx, params.id),
  );
  route(app, database, e.updateManagedTenantFeatures, ({ ctx, params, body }) =>
    managed.updateManagedTenantFeatures(deps, ctx, params.id, body.features),
  );
  route(app, database, e.getConfigurations, ({ ctx }) => service.getConfigurations(deps, ctx));
  route(app, database, e.updateConfigurations, ({ ctx, body }) =>
    service.updateConfigurations(deps, ctx, body.configurations),
  );
  route(app, database, e.getTenantFlags, ({ ctx }) => service.tenantFlags(deps, ctx));
}
