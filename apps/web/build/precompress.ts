/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy next to each built asset, once at build time and at the
 * highest levels, so the server sends them as they are (`@fastify/static` with `preCompressed`) instead of
 * compressing on every request — or, as before, not at all. Plain `node:zlib`: no dependency needed.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|json|svg|txt|wasm)$/;

/** Below this a compressed copy saves less than the headers around it. */
export const MIN_BYTES = 1024;

/**
 * Compresses each of `files` into `file.br` and `file.gz`, skipping small files and any copy that would not
 * be smaller. Returns the files written.
 */
export async function precompressFiles(files: string[]): Promise<string[]> {
  const written: string[] = [];
  await Promise.all(
    files.map(async (file) => {
      if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) return;
      const body = await readFile(file);
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gz(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      for (const [suffix, data] of [
        ['.br', br],
        ['.gz', gzipped],
      ] as const) {
        if (data.length >= body.length) continue;
        await writeFile(`${file}${suffix}`, data);
        written.push(`${file}${suffix}`);
      }
    }),
  );
  return written;
}

/**
 * The Vite plugin: compresses the hashed assets the build emitted (index.html and the public directory are
 * served apart, revalidated and compressed by the server).
 */
export function precompress(): Plugin {
  let assetsDir = 'assets';
  return {
    name: 'palisade-precompress',
    apply: 'build',
    configResolved(config) {
      assetsDir = config.build.assetsDir;
    },
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      const assets = Object.keys(bundle).filter((file) => file.startsWith(`${assetsDir}/`));
      await precompressFiles(assets.map((file) => join(dir, file)));
    },
  };
}
