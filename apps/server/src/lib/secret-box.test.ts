import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { createSecretBox, loadSecretKey } from './secret-box';

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox(randomBytes(32));

  it('seals a value so that only the same key and purpose open it', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:t:u');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'totp:t:u')).toBe('JBSWY3DPEHPK3PXP');
    // A fresh nonce every time: equal secrets do not look equal at rest.
    expect(box.seal('JBSWY3DPEHPK3PXP', 'totp:t:u')).not.toBe(sealed);
    expect(() => box.open(sealed, 'totp:t:other')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'totp:t:u')).toThrow();
    // One character of the ciphertext changed (to another one, whatever it was: 1 in 64 seals had an 'A' there).
    const at = sealed.length - 2;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(tampered).not.toBe(sealed);
    expect(() => box.open(tampered, 'totp:t:u')).toThrow();
    expect(() => box.open('JBSWY3DPEHPK3PXP', 'totp:t:u')).toThrow();
  });
});

describe('the server key', () => {
  it('takes SECRET_KEY as 64 hexadecimal characters and refuses anything else', async () => {
    const hex = randomBytes(32).toString('hex');
    const key = await loadSecretKey({ secretKey: hex, engine: 'postgres', dataDir: null });
    expect(key.toString('hex')).toBe(hex);
    await expect(loadSecretKey({ secretKey: 'short', engine: 'pglite', dataDir: null })).rejects.toThrow(
      /64 hexadecimal characters/,
    );
  });

  it('is required with PostgreSQL: the server refuses to start without it', async () => {
    await expect(loadSecretKey({ secretKey: null, engine: 'postgres', dataDir: null })).rejects.toThrow(
      /SECRET_KEY is required/,
    );
    const config = loadConfig(
      { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'silent' },
      [],
    );
    const database = { kind: 'postgres' } as Database;
    await expect(buildApp(config, { database, logger: false })).rejects.toThrow(/SECRET_KEY is required/);
  });

  it('is generated once into the embedded data directory, readable by the server only', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'palisade-key-'));
    try {
      const first = await loadSecretKey({ secretKey: null, engine: 'pglite', dataDir });
      const again = await loadSecretKey({ secretKey: null, engine: 'pglite', dataDir });
      expect(again.equals(first)).toBe(true);
      const file = join(dataDir, 'secret.key');
      expect((await readFile(file, 'utf8')).trim()).toBe(first.toString('hex'));
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
