import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Encodings a revalidated file is sent in, best first. */
export type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to answer `Accept-Encoding` with: brotli, else gzip, else none. Quality values are honoured
 * only as far as `q=0` refuses an encoding (no browser ranks gzip above brotli).
 */
export function pickEncoding(acceptEncoding: string | undefined): ContentEncoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/** One file as read, with its validators and (lazily) its compressed forms. */
interface CachedFile {
  mtimeMs: number;
  size: number;
  hash: string;
  lastModified: string;
  bodies: Map<ContentEncoding, Promise<Buffer>>;
}

/** What {@link RevalidatedFiles.send} answers with besides the file itself. */
export interface SendOptions {
  contentType: string;
  /** Rewrites the file before it is sent (and before its ETag is taken); must depend on `variant` only. */
  transform?: (text: string) => string;
  /** Names the output of `transform`, so each variant has its own cache entry and ETag. */
  variant?: string;
  /** Request headers besides `Accept-Encoding` that choose the variant (for `Vary`). */
  vary?: string[];
}

/**
 * Small text files that must never be stale — `index.html` (it names the current hashed assets) and the
 * translations — answered with `Cache-Control: no-cache` plus `ETag` and `Last-Modified`, so a browser asks each
 * time and gets a 304 without a body when nothing changed, compressed by `Accept-Encoding`. Files are re-read
 * when their size or modification time changes, so a rebuild or an edited translation is served at once.
 */
export function createRevalidatedFiles() {
  const files = new Map<string, CachedFile>();

  async function load(path: string, options: SendOptions): Promise<CachedFile | null> {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const key = `${path}\0${options.variant ?? ''}`;
    const cached = files.get(key);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const raw = await readFile(path, 'utf8').catch(() => null);
    if (raw === null) return null;
    const body = Buffer.from(options.transform ? options.transform(raw) : raw);
    const entry: CachedFile = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      hash: createHash('sha256').update(body).digest('base64url').slice(0, 27),
      lastModified: info.mtime.toUTCString(),
      bodies: new Map([['identity', Promise.resolve(body)]]),
    };
    files.set(key, entry);
    return entry;
  }

  function body(entry: CachedFile, encoding: ContentEncoding): Promise<Buffer> {
    let compressed = entry.bodies.get(encoding);
    if (!compressed) {
      const plain = entry.bodies.get('identity') as Promise<Buffer>;
      compressed = plain.then((data) =>
        encoding === 'br'
          ? brotli(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            })
          : gz(data, { level: constants.Z_BEST_COMPRESSION }),
      );
      entry.bodies.set(encoding, compressed);
    }
    return compressed;
  }

  return {
    /**
     * Answers with the file at `path`: 304 when the request's `If-None-Match` (or, without it,
     * `If-Modified-Since`) still matches, else the file in the best accepted encoding. True when it answered,
     * false when there is no such file (the caller answers otherwise). Never the reply itself: a reply is
     * thenable, so an async function returning it would resolve to what its `then` gives (nothing), and the
     * caller would take a sent file for a missing one and answer twice.
     */
    async send(
      request: FastifyRequest,
      reply: FastifyReply,
      path: string,
      options: SendOptions,
    ): Promise<boolean> {
      const entry = await load(path, options);
      if (!entry) return false;
      const encoding = pickEncoding(request.headers['accept-encoding']);
      // One ETag per encoding: the bytes differ, and a cache must not swap one for the other.
      const etag = `"${entry.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
      reply
        .header('cache-control', 'no-cache')
        .header('vary', ['Accept-Encoding', ...(options.vary ?? [])].join(', '))
        .header('etag', etag)
        .header('last-modified', entry.lastModified)
        .type(options.contentType);
      const ifNoneMatch = request.headers['if-none-match'];
      const ifModifiedSince = request.headers['if-modified-since'];
      const isFresh = ifNoneMatch
        ? ifNoneMatch
            .split(',')
            .map((tag) => tag.trim().replace(/^W\//, ''))
            .some((tag) => tag === etag || tag === '*')
        : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(entry.lastModified);
      if (isFresh) {
        reply.status(304).send();
        return true;
      }
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      reply.send(await body(entry, encoding));
      return true;
    },
  };
}
