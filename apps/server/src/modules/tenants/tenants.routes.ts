import { tenantEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './tenants.service';

/** `GET/PUT subscriber/tenant/{name}` and `GET tenant/primaryuser` (spec §7). */
export function tenantsRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.getTenant, ({ ctx }) => service.getTenant(database, ctx));
  route(app, database, e.updateTenant, ({ ctx, body }) => service.updateTenant(database, ctx, body));
  route(app, database, e.primaryUser, ({ ctx }) => service.primaryUser(database, ctx));
}
