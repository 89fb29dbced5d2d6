import { dashboardEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import * as service from './dashboard.service';

/** The global SASE dashboard. */
export function dashboardRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.summary, ({ ctx }) => service.summary(database, ctx));
}
