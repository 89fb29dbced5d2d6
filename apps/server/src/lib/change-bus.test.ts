import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type Instance, useFixture } from '../../test/helper';
import { LISTENER_APPLICATION_NAME, queryRows } from '../db/client';
import type { ChangeBus } from './change-bus';

const f = useFixture();
let b: Instance;
let owner: string;

beforeAll(async () => {
  b = await f.startInstance();
  owner = await f.signIn('admin@acme.test');
});

/** Collects what `bus` hears on the policy topic; `next()` waits for the next message. */
function listen(bus: ChangeBus) {
  const heard: (string | null)[] = [];
  let wake: (() => void) | null = null;
  bus.subscribe('policy', (message) => {
    heard.push(message);
    wake?.();
  });
  let read = 0;
  return {
    heard,
    async next(): Promise<string | null> {
      while (heard.length <= read) await new Promise<void>((resolve) => (wake = resolve));
      return heard[read++];
    },
  };
}

// The policy API stands in for any change that is announced; called over HTTP, as lib code knows no module.
const auth = (token: string) => ({ 'x-auth-token': token });
const rule = (over: Record<string, unknown>) => ({ name: 'Rule', type: 'dmn', action: 'block', ...over });

const createPolicy = (name: string, url: string) =>
  f.app.inject({
    method: 'POST',
    url: '/api/policy/acme',
    headers: auth(owner),
    payload: { type: 'other', name, rules: [rule({ url })] },
  });

describe('change bus', () => {
  it('tells every instance of a committed policy change with its new version, and nothing of a refused one', async () => {
    const onA = listen(f.changes);
    const onB = listen(b.changes);
    const pinned = await f.app.inject({
      method: 'POST',
      url: '/api/policy/tests/acme',
      headers: auth(owner),
      payload: { name: 'Pinned', request: { destination: 'pinned.example' }, expect: 'allow' },
    });
    expect(pinned.statusCode, pinned.body).toBe(201);
    expect((await createPolicy('Passes', 'first.example')).statusCode).toBe(201);
    // Breaks the pinned test: refused and rolled back, taking neither a version nor an announcement.
    expect((await createPolicy('Breaks the pin', 'pinned.example')).statusCode).toBe(409);
    expect((await createPolicy('Passes too', 'second.example')).statusCode).toBe(201);
    for (const heard of [onA, onB]) {
      expect(await heard.next()).toBe(`${f.acme.id}:1`);
      expect(await heard.next()).toBe(`${f.acme.id}:2`);
    }
    const [row] = await queryRows<{ version: string }>(
      f.database.db,
      sql`select version::text as version from policy_versions where tenant_id = ${f.acme.id}`,
    );
    expect(row.version).toBe('2');
  });

  it.skipIf(ENGINE !== 'postgres')(
    'listens again after PostgreSQL drops its connection (PostgreSQL only: PGlite has no connection to drop)',
    async () => {
      const onB = listen(b.changes);
      const dropped = await f.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      );
      // Both instances' listeners went.
      expect((dropped as unknown as { rows: unknown[] }).rows).toHaveLength(2);
      // Reconnected: subscribers are told they may have missed something...
      expect(await onB.next()).toBeNull();
      // ...and hear the next change again.
      expect((await createPolicy('After the drop', 'dropped.example')).statusCode).toBe(201);
      expect(await onB.next()).toMatch(new RegExp(`^${f.acme.id}:\\d+$`));
    },
  );
});
