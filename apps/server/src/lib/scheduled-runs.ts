import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client';

/**
 * Claims a run of an instance-wide scheduled job (table `scheduled_runs`): true when no run was claimed in the
 * last `minGapMs`, and then for exactly one of several instances asking at once — the marker is moved by one
 * conditional upsert, so a second caller waits for the first and finds the run taken. Owner access: the marker
 * is not tenant data.
 */
export async function claimScheduledRun(db: Db, job: string, minGapMs: number): Promise<boolean> {
  const rows = await queryRows<{ job: string }>(
    db,
    sql`insert into scheduled_runs (job, last_run_at) values (${job}, now())
      on conflict (job) do update set last_run_at = excluded.last_run_at
        where scheduled_runs.last_run_at <= now() - make_interval(secs => ${minGapMs / 1000}::float8)
      returning job`,
  );
  return rows.length > 0;
}
