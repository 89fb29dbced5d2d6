import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  ERRORS,
  systemEndpoints as e,
  HOME_PATH,
  I18N_NAMESPACES,
  isServedRoute,
  LOCALES,
} from '@palisade/contracts';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { forbidden, notFound } from '../../lib/errors';
import { route } from '../../lib/route';

/** Public config and the dev outbox (under /api); the health probes are modules/health. */
export function systemRoutes(app: FastifyInstance, database: Database, config: Config) {
  route(app, database, e.publicConfig, () => ({
    signOutPartners: config.signOutPartners,
    posthogKey: process.env.POSTHOG_KEY || null,
    posthogHost: process.env.POSTHOG_HOST || null,
  }));
  // Mail holds invitation and verification links: whoever reads the outbox can take over those accounts.
  if (!config.devOutbox) return;
  route(app, database, e.outbox, async ({ ctx, query }) => {
    if (ctx.actor.role !== 'platform_admin') throw forbidden();
    const rows = await database.db
      .select()
      .from(mailOutbox)
      .where(query.to ? eq(mailOutbox.toAddress, query.to.toLowerCase()) : undefined)
      .orderBy(desc(mailOutbox.createdAt))
      .limit(50);
    return rows.map((r) => ({
      id: r.id,
      to: r.toAddress,
      subject: r.subject,
      text: r.bodyText,
      createdAt: r.createdAt.toISOString(),
    }));
  });
}

/** Translations, the built SPA and the 302 rule of spec §2 (at the root). */
export async function webRoutes(app: FastifyInstance, config: Config) {
  // GET /locales/{lng}/{ns}.json: only the two languages and four namespaces of the spec.
  app.get<{ Params: { lng: string; ns: string } }>(
    '/locales/:lng/:ns',
    { schema: { hide: true } },
    async (request, reply) => {
      const { lng } = request.params;
      const ns = request.params.ns.replace(/\.json$/, '');
      if (
        !(LOCALES as readonly string[]).includes(lng) ||
        !(I18N_NAMESPACES as readonly string[]).includes(ns)
      ) {
        throw notFound('Translation');
      }
      const body = await readFile(join(config.localesDir, lng, `${ns}.json`), 'utf8').catch(() => null);
      if (body === null) throw notFound('Translation');
      return reply.type('application/json').header('cache-control', 'no-cache').send(body);
    },
  );

  const indexFile = join(config.webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    // Assets only (files present at start-up); routes and unknown paths are decided below.
    await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false, serve: true });
  }

  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(HOME_PATH, 302));

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/api' || request.method !== 'GET') {
      return reply
        .status(404)
        .send({ errcode: ERRORS.not_found.errcode, code: 'not_found', message: 'Not found.' });
    }
    if (isServedRoute(path) && hasWeb) {
      return reply
        .type('text/html')
        .header('cache-control', 'no-cache')
        .send(await readFile(indexFile, 'utf8'));
    }
    if (isServedRoute(path)) {
      return reply.status(503).type('text/plain').send('The web app is not built: run npm run build.');
    }
    return reply.redirect(HOME_PATH, 302);
  });
}
