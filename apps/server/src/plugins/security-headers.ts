import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** helmet's own HSTS value: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * helmet's headers on every answer, with two changes for a console that is often reached over plain HTTP on a
 * LAN: no `upgrade-insecure-requests`, and HSTS only on requests that came over TLS — directly, or through a
 * trusted proxy's `X-Forwarded-Proto` (`request.protocol` believes it only with TRUST_PROXY). On plain HTTP, HSTS
 * would be ignored at best and, on a name that is later served over TLS, lock browsers out of the HTTP one.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:'],
        // Served over plain HTTP on a LAN too: do not force https sub-requests.
        'upgrade-insecure-requests': null,
        'connect-src': ["'self'", ...(process.env.POSTHOG_HOST ? [process.env.POSTHOG_HOST] : [])],
      },
    },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

/**
 * For @fastify/swagger-ui's `transformStaticCSP`: its built-in policy for /api/docs asks for
 * `upgrade-insecure-requests`, which breaks the page's scripts and styles on plain HTTP.
 */
export const withoutInsecureUpgrade = (csp: string) =>
  csp
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .join('; ');
