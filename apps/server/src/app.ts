import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { createMailer, type Mailer } from './lib/mailer';
import { adminsRoutes } from './modules/admins/admins.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { enrolmentRoutes } from './modules/enrolment/enrolment.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { startEventPurge } from './modules/events/events.service';
import { groupsRoutes } from './modules/groups/groups.routes';
import { policiesRoutes } from './modules/policies/policies.routes';
import { setFeedPrivateNetworks } from './modules/policy-objects/feeds';
import { startFeedRefresh } from './modules/policy-objects/feeds.service';
import { policyObjectsRoutes } from './modules/policy-objects/policy-objects.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { sessionRoutes } from './modules/session/session.routes';
import { tenantsRoutes } from './modules/tenants/tenants.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { usersRoutes } from './modules/users/users.routes';
import { systemRoutes, webRoutes } from './modules/web/web.routes';
import { bearerToken, hashToken } from './plugins/auth';
import { registerErrorHandler } from './plugins/errors';

/** A registered route and the access it declares (for the test that no route is left unguarded). */
export interface RouteEntry {
  method: string;
  url: string;
  access: string | undefined;
}

export interface App {
  app: FastifyInstance;
  routes: RouteEntry[];
  database: Database;
  mailer: Mailer;
  /** Closes the HTTP server, Redis and the database (PGlite loses state or hangs otherwise). */
  close(): Promise<void>;
}

/** Builds the whole server: database, plugins, modules. Listening is `server.ts`'s job. */
export async function buildApp(
  config: Config,
  options: { database?: Database; logger?: boolean } = {},
): Promise<App> {
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : null;
  const mailer = createMailer(database, config.smtpUrl);
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    trustProxy: true,
    bodyLimit: 5 * 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('ctx', null);
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, access: r.config?.access });
  });
  registerErrorHandler(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:'],
        // Served over plain HTTP on a LAN too: do not force https sub-requests.
        'upgrade-insecure-requests': null,
        'connect-src': ["'self'", ...(process.env.POSTHOG_HOST ? [process.env.POSTHOG_HOST] : [])],
      },
    },
  });
  // Per session (or address) and method+path, shared through Redis when there is one (spec §7, ARCHITECTURE §3).
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    redis: redis ?? undefined,
    nameSpace: 'palisade-rl:',
    allowList: (request) => !request.url.startsWith('/api/') || request.url.startsWith('/api/health'),
    keyGenerator: (request) => {
      // A session id or, without one, an API token (Bearer): each counted on its own, by its hash.
      const token = request.headers['x-auth-token'] ?? bearerToken(request.headers.authorization);
      const who = typeof token === 'string' && token ? hashToken(token) : request.ip;
      return `${who}|${request.method}|${request.routeOptions.url ?? request.url.split('?')[0]}`;
    },
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, message: `Retry in ${context.after}` }),
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Palisade API',
        version: '0.1.0',
        description: 'Multi-tenant network and cyber security console',
      },
      servers: [{ url: '/api' }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(
    async (api) => {
      sessionRoutes(api, { database, config, mailer });
      usersRoutes(api, database);
      groupsRoutes(api, database);
      enrolmentRoutes(api, { database, config, mailer });
      policiesRoutes(api, database);
      policyObjectsRoutes(api, database);
      rolesRoutes(api, database);
      adminsRoutes(api, { database, config, mailer });
      tenantsRoutes(api, database);
      tokensRoutes(api, database);
      dashboardRoutes(api, database);
      eventsRoutes(api, database);
      systemRoutes(api, database, config);
    },
    { prefix: '/api' },
  );
  await webRoutes(app, config);
  // Deletes admin events past each tenant's retention, hourly.
  const stopEventPurge = startEventPurge(database, app.log);
  // Refreshes URL threat-intel feeds whose interval has passed, checked every minute.
  setFeedPrivateNetworks(config.feedAllowPrivateNetworks);
  const stopFeedRefresh = startFeedRefresh(database, app.log);

  return {
    app,
    routes,
    database,
    mailer,
    async close() {
      stopEventPurge();
      stopFeedRefresh();
      await app.close();
      await redis?.quit().catch(() => undefined);
      if (!options.database) await database.close();
    },
  };
}
