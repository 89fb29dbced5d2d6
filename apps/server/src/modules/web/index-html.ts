import { readFile, stat } from 'node:fs/promises';
import {
  DEFAULT_LOCALE,
  I18N_INITIAL_NAMESPACES,
  isEmbedRoute,
  isPublicRoute,
  LANGUAGE_COOKIE,
  LOCALES,
  type Locale,
  matchesPattern,
  SERVED_ROUTES,
} from '@palisade/contracts';

const asLocale = (value: string | undefined): Locale | null => {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : null;
};

/**
 * The language the web app will start in, as far as the server can tell — the same order as the app's own
 * detection: `?lng=` in the address, else the language cookie the app keeps, else the default.
 */
export function startLanguage(url: string, cookieHeader: string | undefined): Locale {
  const query = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)) : null;
  const fromQuery = asLocale(query?.get('lng') ?? undefined);
  if (fromQuery) return fromQuery;
  const cookie = cookieHeader
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  return asLocale(cookie) ?? DEFAULT_LOCALE;
}

/**
 * What the web build writes to `route-preloads.json` (apps/web/build/route-preloads.ts): per route pattern the
 * built files its screen loads beyond the app's own, and those of the signed-in shell.
 */
export interface RoutePreloads {
  routes: Record<string, string[]>;
  shell: string[];
}

/** Reads `route-preloads.json`, again only when it changed (a rebuild); null when the build wrote none. */
export function createRoutePreloadsReader(file: string) {
  let cached: { mtimeMs: number; table: RoutePreloads | null } | null = null;
  return async (): Promise<RoutePreloads | null> => {
    const info = await stat(file).catch(() => null);
    if (!info) return null;
    if (cached?.mtimeMs !== info.mtimeMs) {
      const table = await readFile(file, 'utf8')
        .then((text) => JSON.parse(text) as RoutePreloads)
        .catch(() => null);
      cached = { mtimeMs: info.mtimeMs, table };
    }
    return cached.table;
  };
}

/**
 * The served route a path opens, ranked as the router ranks them: of the patterns that match, the one with the
 * most literal segments (`/users/roles` before `/users/:id`).
 */
export function routeOf(path: string): string | null {
  const literals = (pattern: string) => pattern.split('/').filter((s) => s && !s.startsWith(':')).length;
  let best: string | null = null;
  for (const pattern of SERVED_ROUTES) {
    if (matchesPattern(pattern, path) && (best === null || literals(pattern) > literals(best)))
      best = pattern;
  }
  return best;
}

/**
 * The files to preload for `route`: its screen's, and the shell's unless the screen is public or an embedded
 * dashboard (shown without the shell).
 */
export function filesFor(table: RoutePreloads | null, route: string | null): string[] {
  if (!table || !route) return [];
  // The web router's own tests: public screens and embedded dashboards skip the shell.
  const isWithoutShell = isPublicRoute(route) || isEmbedRoute(route);
  return [...new Set([...(table.routes[route] ?? []), ...(isWithoutShell ? [] : table.shell)])];
}

const HREF = /^[\w./-]+$/;

/**
 * index.html with preloads of what the app fetches before its first paint, so the browser fetches it
 * alongside the app's scripts instead of after them: the translation catalogues of `lng` (`as="fetch"` with
 * `crossorigin="anonymous"` matches the app's own request, which then takes the preloaded answer) and the
 * screen's `files` (scripts as module preloads, style sheets as preloads the app's loader then applies).
 */
export function withPreloads(html: string, lng: Locale, files: readonly string[] = []): string {
  const links = [
    ...I18N_INITIAL_NAMESPACES.map(
      (ns) =>
        `<link rel="preload" href="/locales/${lng}/${ns}.json" as="fetch" crossorigin="anonymous" fetchpriority="high">`,
    ),
    ...files
      .filter((file) => HREF.test(file))
      .map((file) =>
        file.endsWith('.css')
          ? `<link rel="preload" href="/${file}" as="style" crossorigin>`
          : `<link rel="modulepreload" crossorigin href="/${file}">`,
      ),
  ].join('\n    ');
  return html.includes('</head>') ? html.replace('</head>', `  ${links}\n  </head>`) : html;
}
