import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Secrets kept at rest (TOTP secrets; later SIM keys and integration credentials) are sealed with AES-256-GCM under
 * the server key: `v1.` followed by base64url of a 12-byte nonce, the 16-byte tag and the ciphertext. A sealed
 * value is bound to its purpose (`aad`), so one cannot be moved into another column and opened there.
 */
export interface SecretBox {
  seal(plain: string, aad: string): string;
  /** Opens a sealed value; throws when it was not sealed under this key for this purpose. */
  open(sealed: string, aad: string): string;
}

const PREFIX = 'v1.';

/** Whether a stored value is sealed (anything else is a value from before encryption at rest). */
export const isSealed = (value: string) => value.startsWith(PREFIX);

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes.');
  return {
    seal(plain, aad) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed, aad) {
      if (!isSealed(sealed)) throw new Error('Not a sealed value.');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** `SECRET_KEY`: 32 bytes written as 64 hexadecimal characters. */
export const SECRET_KEY_PATTERN = /^[0-9a-fA-F]{64}$/;

const KEY_FILE = 'secret.key';

/**
 * The server key: `SECRET_KEY` when set; in embedded mode, a key generated once into `DATA_DIR/secret.key`
 * (readable by the server's user only) or, for an in-memory database, one for this process. PostgreSQL mode
 * refuses to start without `SECRET_KEY`: several servers must share one key, and a key on one server's disk
 * would be lost with it.
 */
export async function loadSecretKey(options: {
  secretKey: string | null;
  engine: 'pglite' | 'postgres';
  /** The PGlite data directory; null for an in-memory database. */
  dataDir: string | null;
}): Promise<Buffer> {
  if (options.secretKey) {
    if (!SECRET_KEY_PATTERN.test(options.secretKey)) {
      throw new Error('SECRET_KEY must be 32 bytes written as 64 hexadecimal characters.');
    }
    return Buffer.from(options.secretKey, 'hex');
  }
  if (options.engine === 'postgres') {
    throw new Error(
      'SECRET_KEY is required with DATABASE_URL (PostgreSQL): 32 bytes as 64 hexadecimal characters, the same ' +
        'on every server, e.g. from `openssl rand -hex 32`.',
    );
  }
  if (!options.dataDir) return randomBytes(32);
  const file = join(options.dataDir, KEY_FILE);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing !== null) {
    if (!SECRET_KEY_PATTERN.test(existing.trim())) throw new Error(`${file} does not hold a valid key.`);
    return Buffer.from(existing.trim(), 'hex');
  }
  const key = randomBytes(32);
  await mkdir(options.dataDir, { recursive: true });
  // `wx`: two processes starting at once cannot overwrite each other's key.
  await writeFile(file, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  await chmod(file, 0o600);
  return Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
}
