import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a file atomically: a temporary file in the same directory, flushed, given its mode, then renamed over
 * the target, so a reader (or a crash) sees the old text or the new one, never half of it.
 */
export async function writeFileAtomic(path: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
    await handle.close();
    // The umask may have narrowed the mode at creation; set it exactly.
    await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A file's text, or null when it does not exist. */
export async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
