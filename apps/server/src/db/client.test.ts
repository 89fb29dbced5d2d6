import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, queryRows } from './client';

describe('Database.close()', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lets background work finish its queries before the connections close', async () => {
    const database = await openDatabase({ databaseUrl: 'memory://', dataDir: '' });
    const answers: number[] = [];
    database.background(
      (async () => {
        await sleep(50);
        const [row] = await queryRows<{ n: number }>(database.db, sql`select 41 + 1 as n`);
        answers.push(row.n);
      })(),
    );
    await database.close();
    expect(answers).toEqual([42]);
  });

  it('logs background work that fails instead of failing close()', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const database = await openDatabase({ databaseUrl: 'memory://', dataDir: '' });
    database.background(Promise.reject(new Error('job broke')));
    await expect(database.close()).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledWith(
      'background work failed',
      expect.objectContaining({ message: 'job broke' }),
    );
  });
});

describe('one server per PGlite data directory', () => {
  it('refuses a second open of the directory, naming it and the holder; after close it opens again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'palisade-lock-'));
    try {
      const first = await openDatabase({ databaseUrl: null, dataDir });
      const second = openDatabase({ databaseUrl: null, dataDir });
      await expect(second).rejects.toMatchObject({ name: 'DataDirInUseError' });
      await expect(second).rejects.toThrow(`The data directory ${dataDir} is in use`);
      await expect(second).rejects.toThrow(`(process ${process.pid})`);
      const lock = join(dataDir, 'palisade.lock');
      // The first is untouched: it still answers and still holds the lock.
      const [row] = await queryRows<{ n: number }>(first.db, sql`select 1 as n`);
      expect(row.n).toBe(1);
      expect((await readFile(lock, 'utf8')).split('\n')[0]).toBe(String(process.pid));
      await first.close();
      await expect(readFile(lock, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });

      // A lock left by a process that is gone is taken over.
      const gone = spawnSync(process.execPath, ['-e', '']).pid;
      await writeFile(lock, `${gone}\n`);
      const again = await openDatabase({ databaseUrl: null, dataDir });
      expect((await readFile(lock, 'utf8')).split('\n')[0]).toBe(String(process.pid));
      await again.close();

      // So is one naming this process's PID that this process does not hold (a restarted container's PID 1).
      await writeFile(lock, `${process.pid}\nleft-behind\n`);
      const reopened = await openDatabase({ databaseUrl: null, dataDir });
      await reopened.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
