import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { type ChangeBus, openChangeBus } from './lib/change-bus';
import { createMailer, type Mailer } from './lib/mailer';
import { closeRedis, openRedis } from './lib/redis';
import { createSecretBox, loadSecretKey } from './lib/secret-box';
import { adminsRoutes } from './modules/admins/admins.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { enrolmentRoutes } from './modules/enrolment/enrolment.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { startEventPurge } from './modules/events/events.service';
import { groupsRoutes } from './modules/groups/groups.routes';
import { healthRoutes } from './modules/health/health.routes';
import { policiesRoutes } from './modules/policies/policies.routes';
import { createPolicyCache } from './modules/policies/policy-state';
import { setFeedPrivateNetworks } from './modules/policy-objects/feeds';
import { startFeedRefresh } from './modules/policy-objects/feeds.service';
import { policyObjectsRoutes } from './modules/policy-objects/policy-objects.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { sessionRoutes } from './modules/session/session.routes';
import { sealClearTotpSecrets } from './modules/session/session.service';
import { tenantsRoutes } from './modules/tenants/tenants.routes';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { usersRoutes } from './modules/users/users.routes';
import { systemRoutes, webRoutes } from './modules/web/web.routes';
import { handleClientError, handleFrameworkError, registerErrorHandler } from './plugins/errors';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurityHeaders, withoutInsecureUpgrade } from './plugins/security-headers';

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
  /** Changes committed through any instance on the database (LISTEN/NOTIFY), as this instance hears them. */
  changes: ChangeBus;
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
  // Seals secrets at rest; TOTP secrets stored in clear by an earlier version are sealed now. First, so a
  // missing key stops the start before anything else is opened.
  const isOnDisk = database.kind === 'pglite' && !config.databaseUrl?.startsWith('memory://');
  const secrets = createSecretBox(
    await loadSecretKey({
      secretKey: config.secretKey,
      engine: database.kind,
      dataDir: isOnDisk ? config.dataDir : null,
    }),
  );
  await sealClearTotpSecrets(database, secrets);
  const redis = config.redisUrl ? await openRedis(config.redisUrl) : null;
  const mailer = createMailer(database, config.smtpUrl);
  const { trustProxy } = config;
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    // X-Forwarded-* only from the proxies TRUST_PROXY names: anyone else could forge their address. Fastify 5.12
    // ignores a bare hop count, so the first `trustProxy` hops are trusted by a function.
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    // The router's own refusals (bad %-encoding, over-long path parameter) answer with the error envelope too.
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('ctx', null);
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, access: r.config?.access });
  });
  registerErrorHandler(app);

  await registerSecurityHeaders(app);
  await registerRateLimit(app, { config, database, redis });

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
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: withoutInsecureUpgrade,
  });

  // This instance's own listener and compiled policies: other instances on the database have theirs.
  const changes = await openChangeBus(database, app.log);
  const policyCache = createPolicyCache(database, changes);

  await app.register(
    async (api) => {
      sessionRoutes(api, { database, config, mailer, secrets });
      usersRoutes(api, database);
      groupsRoutes(api, database);
      enrolmentRoutes(api, { database, config, mailer });
      policiesRoutes(api, database, policyCache);
      policyObjectsRoutes(api, database);
      rolesRoutes(api, database);
      adminsRoutes(api, { database, config, mailer });
      tenantsRoutes(api, database);
      tokensRoutes(api, database);
      dashboardRoutes(api, database);
      eventsRoutes(api, database);
      systemRoutes(api, database, config);
      healthRoutes(api, { database, redis });
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
    changes,
    async close() {
      stopEventPurge();
      stopFeedRefresh();
      await app.close();
      policyCache.close();
      await changes.close();
      if (redis) await closeRedis(redis);
      if (!options.database) await database.close();
    },
  };
}
