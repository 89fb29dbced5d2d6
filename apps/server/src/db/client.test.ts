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
