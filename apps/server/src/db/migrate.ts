import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { pgErrorCode } from './driver';
import { type Db, queryRows } from './query';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

/**
 * Applies the forward-only `NNNN_name.sql` files not applied yet, in name order, each in its own transaction
 * (a file holds many statements, so it goes through the simple-query protocol as one script). An advisory lock
 * keeps two servers starting together on one PostgreSQL from applying a file twice.
 */
export async function migrate(runScript: (text: string) => Promise<unknown>, db: Db): Promise<void> {
  await runScript(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  const done = await queryRows<{ name: string }>(db, sql`select name from schema_migrations`);
  const applied = new Set(done.map((r) => r.name));
  for (const file of files) {
    if (applied.has(file)) continue;
    const body = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
    await runScript(
      `BEGIN;
       SELECT pg_advisory_xact_lock(724153);
       DO $m$ BEGIN IF EXISTS (SELECT 1 FROM schema_migrations WHERE name = '${file}') THEN
         RAISE EXCEPTION 'already applied' USING ERRCODE = 'P0001'; END IF; END $m$;
       ${body}
       ;INSERT INTO schema_migrations (name) VALUES ('${file}');
       COMMIT;`,
    ).catch(async (error: unknown) => {
      await runScript('ROLLBACK').catch(() => undefined);
      // Another server applied it while we waited for the lock: nothing to do.
      if (pgErrorCode(error) !== 'P0001') throw error;
    });
  }
}
