import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';

const f = useFixture();

describe('health probes', () => {
  it('reports each dependency (no REDIS_URL: none) and answers liveness without checks', async () => {
    const res = await f.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', redis: 'none' });
    const live = await f.app.inject({ url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 with database down once the database is gone, while liveness still answers 200', async () => {
    // A second instance on its own connection to the file's database, which is then closed under it.
    const database = await openDatabase({ databaseUrl: f.config.databaseUrl, dataDir: '' });
    const other = await buildApp(f.config, { database, logger: false });
    try {
      expect((await other.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      await database.close();
      const res = await other.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'down', database: 'down', redis: 'none' });
      const live = await other.app.inject({ url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
