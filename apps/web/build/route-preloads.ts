/**
 * Which built files each screen needs, for the server to name in index.html (`<link rel="modulepreload">`): the
 * browser then fetches the screen's chunks alongside the app's own instead of after the app has started and
 * matched the route — one round of requests fewer before the first paint of any page opened directly.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** Where the build writes the table, next to index.html. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** What the server reads: per route pattern the files of its screen, and those of the signed-in shell. */
export interface RoutePreloads {
  routes: Record<string, string[]>;
  shell: string[];
}

/**
 * The route patterns of the screen table (`src/app/routes.ts`) with the modules each one's loader imports, read
 * from the source: each entry is `'/pattern': { name: '…', load: … import('…') … }`.
 */
export function screenImports(source: string): Map<string, string[]> {
  const screens = new Map<string, string[]>();
  for (const entry of source.matchAll(/^\s*'(\/[^']*)':\s*\{([^{}]*?)\},?\s*$/gm)) {
    const modules = [...entry[2].matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]);
    if (modules.length > 0) screens.set(entry[1], modules);
  }
  return screens;
}

/** The part of a Rollup/Rolldown output chunk this plugin reads. */
interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

const withoutExtension = (path: string) => path.replace(/\.[cm]?[jt]sx?$/, '');

/** Builds the table from the output bundle; `routesFile` is the absolute path of the screen table. */
export function routePreloadsOf(
  bundle: Record<string, { type: string }>,
  routesFile: string,
  shellModule: string,
): RoutePreloads {
  const chunks = Object.values(bundle).filter((item): item is ChunkInfo => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const byModule = new Map(
    chunks.filter((c) => c.facadeModuleId).map((c) => [withoutExtension(c.facadeModuleId as string), c]),
  );
  /** The chunk's file, the files it imports statically (transitively) and their CSS. */
  const closure = (chunk: ChunkInfo, files = new Set<string>()): Set<string> => {
    if (files.has(chunk.fileName)) return files;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of chunk.imports) {
      const next = byFile.get(imported);
      if (next) closure(next, files);
    }
    return files;
  };
  // index.html names the entry's files already.
  const initial = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [...closure(c)]));
  const filesOf = (modules: string[]) => {
    const files = new Set<string>();
    for (const module of modules) {
      const chunk = byModule.get(withoutExtension(module));
      if (chunk) closure(chunk, files);
    }
    return [...files].filter((file) => !initial.has(file));
  };
  const routes: Record<string, string[]> = {};
  const source = readFileSync(routesFile, 'utf8');
  for (const [route, specifiers] of screenImports(source)) {
    routes[route] = filesOf(specifiers.map((s) => resolve(dirname(routesFile), s)));
  }
  return { routes, shell: filesOf([shellModule]) };
}

/** The files of a table that are not in `dir` (a preload of a missing file fails in the browser). */
export function missingFiles(table: RoutePreloads, dir: string): string[] {
  const named = new Set([...table.shell, ...Object.values(table.routes).flat()]);
  return [...named].filter((file) => !existsSync(join(dir, file))).sort();
}

/**
 * The Vite plugin: writes {@link ROUTE_PRELOADS_FILE} for the screen table of `src/app/routes.ts` once the
 * bundle is written — from the chunks that were (Vite drops CSS-only chunks late: a table made earlier named
 * `styles-*.js`, which no build holds) — and fails the build when the table names a file the output lacks.
 */
export function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'palisade-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    writeBundle(options, bundle) {
      const dir = options.dir ?? resolve(root, 'dist');
      const table = routePreloadsOf(
        bundle as Record<string, { type: string }>,
        resolve(root, 'src/app/routes.ts'),
        resolve(root, 'src/app/shell/app-shell'),
      );
      const missing = missingFiles(table, dir);
      if (missing.length > 0) {
        throw new Error(
          `${ROUTE_PRELOADS_FILE} would name files the build does not hold: ${missing.join(', ')}`,
        );
      }
      writeFileSync(join(dir, ROUTE_PRELOADS_FILE), JSON.stringify(table));
    },
  };
}
