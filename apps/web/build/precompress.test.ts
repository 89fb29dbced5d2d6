import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressFiles } from './precompress';

describe('precompressFiles', () => {
  it('writes brotli and gzip copies that decompress to the asset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    const js = join(dir, 'index-abc123.js');
    const body = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ i })))};`;
    writeFileSync(js, body);
    await precompressFiles([js]);
    expect(brotliDecompressSync(readFileSync(`${js}.br`)).toString()).toBe(body);
    expect(gunzipSync(readFileSync(`${js}.gz`)).toString()).toBe(body);
    expect(readFileSync(`${js}.br`).length).toBeLessThan(body.length / 4);
  });

  it('leaves small files, images and copies that would not be smaller alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    const small = join(dir, 'tiny.js');
    const png = join(dir, 'logo.png');
    const random = join(dir, 'random.js');
    writeFileSync(small, 'export {};');
    writeFileSync(png, Buffer.alloc(4096, 1));
    // Incompressible: base64 of random bytes still shrinks a little, raw random bytes do not.
    writeFileSync(random, Buffer.from(crypto.getRandomValues(new Uint8Array(4096))));
    await precompressFiles([small, png, random]);
    for (const file of [small, png, random]) {
      expect(existsSync(`${file}.br`), file).toBe(false);
      expect(existsSync(`${file}.gz`), file).toBe(false);
    }
  });
});
