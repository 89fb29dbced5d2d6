import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { type ChangeBus, openChangeBus } from './lib/change-bus';
import { createMailer, type Mailer } from './lib/mailer';
import { closeRedis, openRedis } from './lib/redis';
import { type LogSink, redactingSink, serializeRequest } from './lib/request-log';
import { createSecretBox, loadSecretKey } from './lib/secret-box';
import type { ModuleDeps, Stop } from './lib/server-module';
import { MODULES } from './module-list';
import { embedActor } from './modules/embed-links/embed-auth.service';
import { deviceOfCredential } from './modules/enrolment/devices.service';
import { flagsOf } from './modules/features/features.service';
import { gatewayOfCredential } from './modules/gateways/gateways.service';
import { sealClearTotpSecrets } from './modules/session/session.service';
import { sessionActor } from './modules/session/session-auth.service';
import { findTenantByName } from './modules/tenants/tenants.service';
import { tokenActor } from './modules/tokens/token-auth.service';
import { registerAuth } from './plugins/auth';
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
  options: {
    database?: Database;
    logger?: boolean;
    /** Where log lines go (standard output by default); every line is redacted first (lib/request-log.ts). */
    logSink?: LogSink;
  } = {},
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
  const redis = config.redisUrl ? await openRedis(config.redisUrl, config.redisPrefix) : null;
  const mailer = createMailer(database, config.smtpUrl);
  const { trustProxy } = config;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: { req: serializeRequest },
            stream: redactingSink(options.logSink),
          },
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
  // The access check, with what it needs from the modules that own sessions, API tokens and tenants.
  registerAuth(app, {
    sessionActor: (sessionId) => sessionActor(database, sessionId),
    tokenActor: (secret, ip) => tokenActor(database, secret, ip),
    embedActor: (token, ip) => embedActor(database, token, ip),
    tenantNamed: (name) => findTenantByName(database, name),
    gatewayOf: (credential) => gatewayOfCredential(database, credential),
    deviceOf: (credential) => deviceOfCredential(database, credential),
    tenantFlags: (tenant) => flagsOf({ database }, tenant),
  });
  await registerRateLimit(app, { config, redis });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Palisade API',
        version: '0.1.0',
        description: 'Multi-tenant network and cyber security console',
      },
      servers: [{ url: '/api' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
          gateway: { type: 'http', scheme: 'bearer', description: 'A gateway credential (gw_…)' },
          embed: { type: 'http', scheme: 'bearer', description: 'An embed link’s token (emb_…)' },
          device: {
            type: 'http',
            scheme: 'bearer',
            description: "A device's own credential, from its enrolment",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: withoutInsecureUpgrade,
  });

  // This instance's own listener: other instances on the database have theirs.
  const changes = await openChangeBus(database, app.log);
  const deps: ModuleDeps = { database, config, mailer, secrets, redis, changes, log: app.log };

  // Every module from the one list: API routes under /api, then root routes, then background work.
  await app.register(
    async (api) => {
      for (const module of MODULES) module.api?.(api, deps);
    },
    { prefix: '/api' },
  );
  for (const module of MODULES) await module.root?.(app, deps);
  const stops: Stop[] = MODULES.flatMap((module) => (module.start ? [module.start(deps)] : []));

  return {
    app,
    routes,
    database,
    mailer,
    changes,
    async close() {
      for (const stop of stops) await stop();
      // Runs the modules' onClose hooks (the policy cache) too.
      await app.close();
      await changes.close();
      if (redis) await closeRedis(redis);
      if (!options.database) await database.close();
    },
  };
}
