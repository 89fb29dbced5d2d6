import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { AppError } from '../lib/errors';
import { queryRows } from './client';
import { isUniqueViolation, pgArray, pgError, pgErrorCode, uniqueViolationConstraint } from './driver';
import { groups, userGroups, users } from './schema';

// Real errors and real round trips on the run's engine: this file is in the PostgreSQL pass of scripts/test.sh
// too, since what node-postgres and PGlite throw and parse differs.
const f = useFixture();

/** What `run` rejected with (fails the test if it resolved). */
async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('errors of the driver', () => {
  it('finds a unique violation under drizzle’s wrapper, with the unique index it broke', async () => {
    await f.database.db.insert(groups).values({ tenantId: f.acme.id, name: 'Dup-Name' });
    const error = await rejection(() =>
      f.database.db.insert(groups).values({ tenantId: f.acme.id, name: 'dup-name' }),
    );
    // drizzle's error has no code of its own: the driver's is its cause.
    expect((error as { code?: unknown }).code).toBeUndefined();
    expect((error as { cause?: unknown }).cause).toBeDefined();
    expect(pgErrorCode(error)).toBe('23505');
    expect(pgError(error)).toMatchObject({ code: '23505', constraint: 'groups_name', table: 'groups' });
    expect(pgError(error)?.detail).toMatch(/already exists/);
    expect(uniqueViolationConstraint(error)).toBe('groups_name');
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'groups_name')).toBe(true);
    expect(isUniqueViolation(error, 'users_username')).toBe(false);
    // Wrapped once more (rethrown with a cause): still found.
    expect(uniqueViolationConstraint(new Error('could not save', { cause: error }))).toBe('groups_name');
  });

  it('finds it thrown out of a tenant transaction (rolled back as the restricted role)', async () => {
    const error = await rejection(() =>
      f.database.tenantTx(f.acme.id, (tx) =>
        tx.insert(groups).values({ tenantId: f.acme.id, name: 'DUP-NAME' }),
      ),
    );
    expect(uniqueViolationConstraint(error)).toBe('groups_name');
    // A primary key is a unique constraint too.
    const [member] = await f.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.tenantId, f.acme.id));
    const [group] = await f.database.db
      .insert(groups)
      .values({ tenantId: f.acme.id, name: 'Members twice' })
      .returning({ id: groups.id });
    const groupId = group!.id;
    await f.database.db.insert(userGroups).values({ tenantId: f.acme.id, userId: member!.id, groupId });
    const again = await rejection(() =>
      f.database.tenantTx(f.acme.id, (tx) =>
        tx.insert(userGroups).values({ tenantId: f.acme.id, userId: member!.id, groupId }),
      ),
    );
    expect(uniqueViolationConstraint(again)).toBe('user_groups_pkey');
  });

  it('finds a foreign-key violation, with its constraint', async () => {
    const [member] = await f.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.tenantId, f.acme.id));
    const error = await rejection(() =>
      f.database.db
        .insert(userGroups)
        .values({ tenantId: f.acme.id, userId: member!.id, groupId: randomUUID() }),
    );
    expect(pgErrorCode(error)).toBe('23503');
    expect(pgError(error)).toMatchObject({
      table: 'user_groups',
      constraint: expect.stringMatching(/fkey$/),
    });
    expect(uniqueViolationConstraint(error)).toBeNull();
    expect(isUniqueViolation(error)).toBe(false);
  });

  it('finds the driver’s own error (a raw query, as the migrations run), and any SQLSTATE', async () => {
    const client = (f.database.db as unknown as { $client: { query(text: string): Promise<unknown> } })
      .$client;
    const raised = await rejection(() =>
      client.query(`DO $$ BEGIN RAISE EXCEPTION 'already applied' USING ERRCODE = 'P0001'; END $$`),
    );
    expect((raised as { code?: unknown }).code).toBe('P0001');
    expect(pgErrorCode(raised)).toBe('P0001');
    const syntax = await rejection(() => f.database.db.execute(sql`selec 1`));
    expect(pgErrorCode(syntax)).toBe('42601');
    expect(isUniqueViolation(syntax)).toBe(false);
  });

  it('sees no database error in other errors', () => {
    const appError = new AppError('conflict', 'A group with this name exists.');
    const socket = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32 });
    for (const error of [
      appError,
      socket,
      new Error('x', { cause: socket }),
      null,
      undefined,
      '23505',
      23505,
      {},
    ]) {
      expect(pgError(error)).toBeNull();
      expect(pgErrorCode(error)).toBeNull();
      expect(isUniqueViolation(error)).toBe(false);
      expect(uniqueViolationConstraint(error)).toBeNull();
    }
    // A cycle of causes ends.
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(pgError(loop)).toBeNull();
  });
});

describe('arrays', () => {
  /** Items the array syntax has to quote or escape, and a real NULL next to the text NULL. */
  const TRICKY = [
    'a,b',
    'say "hi"',
    'back\\slash',
    '\\"',
    '{braces}',
    '}',
    '',
    null,
    'NULL',
    'null',
    ' padded ',
    'ü €',
  ];

  it('passes items with commas, quotes, backslashes, braces, empty strings and NULL as one parameter', async () => {
    const [row] = await queryRows<{ items: unknown; n: number | string }>(
      f.database.db,
      sql`select ${pgArray(TRICKY, 'text')} as items, cardinality(${pgArray(TRICKY, 'text')}) as n`,
    );
    expect(row!.items).toEqual(TRICKY);
    expect(Number(row!.n)).toBe(TRICKY.length);
    // Element by element on the server: the NULL is SQL's NULL, the text NULL is text.
    const items = await queryRows<{ item: string | null; isNull: boolean; position: number | string }>(
      f.database.db,
      sql`select item, item is null as "isNull", position
        from unnest(${pgArray(TRICKY, 'text')}) with ordinality as t(item, position) order by position`,
    );
    expect(items.map((r) => r.item)).toEqual(TRICKY);
    expect(items.map((r) => r.isNull)).toEqual(TRICKY.map((item) => item === null));
  });

  it('casts to the element type: uuid with any(), empty arrays, numbers, timestamps, JSON', async () => {
    const ids = f.acme.groupIds;
    const found = await queryRows<{ id: string }>(
      f.database.db,
      sql`select id from groups where id = any(${pgArray([...ids, randomUUID()], 'uuid')}) order by id`,
    );
    expect(found.map((r) => String(r.id))).toEqual([...ids].sort());
    const none = await queryRows<{ id: string }>(
      f.database.db,
      sql`select id from groups where id = any(${pgArray([], 'uuid')})`,
    );
    expect(none).toEqual([]);
    const [row] = await queryRows<{
      ints: unknown;
      big: unknown;
      at: unknown;
      json: unknown;
      empty: unknown;
    }>(
      f.database.db,
      sql`select ${pgArray([1, null, -3], 'integer')} as ints,
          ${pgArray(['9007199254740993'], 'bigint')}::text[] as big,
          ${pgArray(['2024-02-29T23:59:59.123Z', null], 'timestamptz')}::text[] as at,
          ${pgArray([JSON.stringify({ a: 'x,"y"}' }), null], 'jsonb')} as json,
          ${pgArray([], 'text')} as empty`,
    );
    expect(row!.ints).toEqual([1, null, -3]);
    expect(row!.big).toEqual(['9007199254740993']);
    expect(
      (row!.at as (string | null)[]).map((v) => (v === null ? null : new Date(v).toISOString())),
    ).toEqual(['2024-02-29T23:59:59.123Z', null]);
    expect(row!.json).toEqual([{ a: 'x,"y"}' }, null]);
    expect(row!.empty).toEqual([]);
  });

  it('rejects a malformed uuid instead of reading it as several items', async () => {
    const error = await rejection(() =>
      queryRows(f.database.db, sql`select ${pgArray([`${randomUUID()},${randomUUID()}`], 'uuid')} as ids`),
    );
    expect(pgErrorCode(error)).toBe('22P02');
  });

  it('come back as JS arrays from both drivers: text[], uuid[], array_agg, the {} default', async () => {
    const ids = pgArray(f.acme.groupIds, 'uuid');
    const [row] = await queryRows<Record<string, unknown>>(
      f.database.db,
      sql`select array['a,b', 'say "hi"', 'back\\slash', '{braces}', '', null, 'NULL']::text[] as text,
          (select array_agg(id order by id) from groups where id = any(${ids})) as uuids,
          (select array_agg(id::text order by id) from groups where id = any(${ids})) as texts,
          coalesce((select array_agg(id::text) from groups where false), '{}') as none,
          '{}'::text[] as empty`,
    );
    expect(row!.text).toEqual(['a,b', 'say "hi"', 'back\\slash', '{braces}', '', null, 'NULL']);
    expect(row!.uuids).toEqual([...f.acme.groupIds].sort());
    expect(row!.texts).toEqual([...f.acme.groupIds].sort());
    expect(row!.none).toEqual([]);
    expect(row!.empty).toEqual([]);
  });

  it('come back as text only for the types the drivers leave raw (timestamps, enums): cast those to text[]', async () => {
    await f.database.db.execute(sql`create type driver_test_mood as enum ('calm', 'a,b')`);
    const [row] = await queryRows<Record<string, unknown>>(
      f.database.db,
      sql`select array[timestamptz '2024-01-01 00:00:00+00'] as at,
          array['calm', 'a,b']::driver_test_mood[] as moods,
          array['calm', 'a,b']::driver_test_mood[]::text[] as "moodTexts"`,
    );
    expect(typeof row!.at).toBe('string');
    expect(typeof row!.moods).toBe('string');
    expect(row!.moodTexts).toEqual(['calm', 'a,b']);
  });
});
