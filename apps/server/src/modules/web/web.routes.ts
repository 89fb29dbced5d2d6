import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  ERRORS,
  systemEndpoints as e,
  HOME_PATH,
  I18N_NAMESPACES,
  isEmbedRoute,
  isServedRoute,
  LOCALES,
} from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { forbidden, notFound } from '../../lib/errors';
import { readOutbox } from '../../lib/mailer';
import { route } from '../../lib/route';
import { createRoutePreloadsReader, filesFor, routeOf, startLanguage, withPreloads } from './index-html';
import { createRevalidatedFiles } from './revalidated-files';

/** Public config and the dev outbox (under /api); the health probes are modules/health. */
export function systemRoutes(app: FastifyInstance, database: Database, config: Config) {
  route(app, database, e.publicConfig, () => ({
    signOutPartners: config.signOutPartners,
    posthogKey: process.env.POSTHOG_KEY || null,
    posthogHost: process.env.POSTHOG_HOST || null,
    dashboardBaseUrl: config.dashboardBaseUrl,
  }));
  // Mail holds invitation and verification links: whoever reads the outbox can take over those accounts.
  if (!config.devOutbox) return;
  route(app, database, e.outbox, async ({ ctx, query }) => {
    if (ctx.actor.role !== 'platform_admin') throw forbidden();
    const rows = await readOutbox(database, query.to);
    return rows.map((r) => ({
      id: r.id,
      to: r.toAddress,
      subject: r.subject,
      text: r.bodyText,
      attachments: r.attachments.map((file) => ({
        filename: file.filename,
        contentType: file.contentType,
        size: Buffer.from(file.content, 'base64').length,
      })),
      createdAt: r.createdAt.toISOString(),
    }));
  });
}

/** Hashed asset names change with their content, so a browser may keep them for a year without asking. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Translations, the built SPA and the 302 rule of spec §2 (at the root). */
export async function webRoutes(app: FastifyInstance, config: Config) {
  const revalidated = createRevalidatedFiles();

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
      const sent = await revalidated.send(request, reply, join(config.localesDir, lng, `${ns}.json`), {
        contentType: 'application/json; charset=utf-8',
      });
      if (!sent) throw notFound('Translation');
      return reply;
    },
  );

  const indexFile = join(config.webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  const readRoutePreloads = createRoutePreloadsReader(join(config.webDist, 'route-preloads.json'));
  if (hasWeb) {
    const assetsDir = join(config.webDist, 'assets') + sep;
    // Built files present at start-up, sent as the build compressed them (.br/.gz by Accept-Encoding). index.html
    // and the translations are answered here (revalidated), the compressed copies only in place of their file.
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      serve: true,
      preCompressed: true,
      globIgnore: ['index.html', 'route-preloads.json', 'locales/**', '**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.startsWith(assetsDir) ? IMMUTABLE_CACHE : 'no-cache');
      },
    });
  }

  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(HOME_PATH, 302));

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/api' || request.method !== 'GET') {
      return reply
        .status(404)
        .send({ errcode: ERRORS.not_found.errcode, code: 'not_found', message: 'Not found.' });
    }
    // An embedded dashboard's address carries the session id until the app strips it: no page it links to or
    // loads may learn it from a Referer (helmet sends the same policy everywhere; this one must never change).
    if (isEmbedRoute(path)) reply.header('referrer-policy', 'no-referrer');
    if (isServedRoute(path) && hasWeb) {
      const lng = startLanguage(request.url, request.headers.cookie);
      const route = routeOf(path);
      const files = filesFor(await readRoutePreloads(), route);
      const sent = await revalidated.send(request, reply, indexFile, {
        contentType: 'text/html; charset=utf-8',
        transform: (html) => withPreloads(html, lng, files),
        variant: `${lng} ${route} ${files.join()}`,
        vary: ['Cookie'],
      });
      if (sent) return reply;
    }
    if (isServedRoute(path)) {
      return reply.status(503).type('text/plain').send('The web app is not built: run npm run build.');
    }
    return reply.redirect(HOME_PATH, 302);
  });
}
