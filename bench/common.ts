/** What the bench parts share: percentiles, timing an API path, a throw-away PostgreSQL database. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_ADMIN = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const ms = (value: number) => Number(value.toFixed(1));

/** p50 and p95 of SAMPLES sequential GETs of `url` over real HTTP; the first ten warm caches and plans. */
export async function measure(url: string, token: string) {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 10; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers: { 'x-auth-token': token } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    if (i >= 10) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** A fresh database on the PostgreSQL server of PG_ADMIN, or null when none answers. */
export async function postgresDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `palisade_bench_${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: PG_ADMIN });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
