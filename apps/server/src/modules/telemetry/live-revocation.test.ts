import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { users } from '../../db/schema';

/**
 * The live view (`GET /telemetry/{tenant}/live`, server-sent events) ends once the credential it was opened with
 * stops acting — signed out, its administrator suspended, its tenant suspended, its API token revoked — instead of
 * streaming on. Its own file: every case ends someone's access for good.
 */
const f = useFixture();
let address: string;

beforeAll(async () => {
  address = await f.app.listen({ port: 0, host: '127.0.0.1' });
});

const session = (token: string) => ({ 'x-auth-token': token });
const userId = async (username: string) =>
  (await f.database.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0].id;

/** Opens the live view and reads it to its end: the ticks it got, the `end` event's data, when it ended. */
async function openLive(tenant: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${address}/api/telemetry/${tenant}/live`, {
    headers,
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ticks = 0;
  const waiter: { onTick: (() => void) | null } = { onTick: null };
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: isDone } = await reader.read();
        if (isDone) break;
        text += decoder.decode(value);
        ticks = text.split('event: tick').length - 1;
        waiter.onTick?.();
      }
    } catch {
      // aborted by the test
    }
    const end = /event: end\ndata: (.*)\n/.exec(text)?.[1];
    return { at: Date.now(), end: end ? JSON.parse(end) : null };
  })();
  return {
    done,
    /** Waits for the next tick (the stream still open). */
    nextTick: () =>
      new Promise<void>((resolve) => {
        const seen = ticks;
        waiter.onTick = () => {
          if (ticks > seen) resolve();
        };
      }),
    close: () => controller.abort(),
  };
}

/** What `live` answers within `ms` of now: its end, or null while it still streams. */
const endWithin = (live: Awaited<ReturnType<typeof openLive>>, ms: number) =>
  Promise.race([live.done, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

describe('the live view ends when its credential stops acting', () => {
  it('ends within a second of signing out, with the refusal; another session of the same account streams on', async () => {
    const token = await f.signIn('admin@acme.test');
    const other = await f.signIn('admin@acme.test');
    const live = await openLive('acme', session(token));
    const kept = await openLive('acme', session(other));
    await live.nextTick();
    const signedOut = await f.app.inject({ method: 'DELETE', url: '/api/session', headers: session(token) });
    expect(signedOut.statusCode).toBe(200);
    const started = Date.now();
    const ended = await endWithin(live, 2000);
    expect(ended, 'the stream still runs 2 s after sign-out').not.toBeNull();
    expect(ended!.at - started).toBeLessThan(1500);
    expect(ended!.end).toMatchObject({ errcode: 1, code: 'unauthenticated' });
    // The account's other session is not the one that ended.
    await kept.nextTick();
    expect(await endWithin(kept, 0)).toBeNull();
    kept.close();
  });

  it('ends within a second of its administrator being suspended by the owner', async () => {
    const owner = await f.signIn('admin@acme.test');
    const helpdesk = await f.signIn('helpdesk@acme.test');
    const live = await openLive('acme', session(helpdesk));
    await live.nextTick();
    const suspended = await f.app.inject({
      method: 'PUT',
      url: `/api/admins/acme/${await userId('helpdesk@acme.test')}/suspension`,
      headers: session(owner),
      payload: { suspended: true },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const started = Date.now();
    const ended = await endWithin(live, 2000);
    expect(ended, 'the stream still runs 2 s after the suspension').not.toBeNull();
    expect(ended!.at - started).toBeLessThan(1500);
    expect(ended!.end).toMatchObject({ errcode: 1 });
  });

  it('ends within a second of its API token being revoked', async () => {
    const owner = await f.signIn('admin@acme.test');
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/me/tokens',
      headers: session(owner),
      payload: { name: 'Wallboard', role: 'auditor', isReadOnly: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, secret } = created.json();
    const live = await openLive('acme', { authorization: `Bearer ${secret}` });
    await live.nextTick();
    const revoked = await f.app.inject({
      method: 'DELETE',
      url: `/api/me/tokens/${id}`,
      headers: session(owner),
    });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    const started = Date.now();
    const ended = await endWithin(live, 2000);
    expect(ended, 'the stream still runs 2 s after the revocation').not.toBeNull();
    expect(ended!.at - started).toBeLessThan(1500);
    expect(ended!.end).toMatchObject({ errcode: 1 });
  }, 15_000);

  it("ends within a second of its tenant being suspended by the partner; the partner's own view of it streams on", async () => {
    const owner = await f.signIn('admin@acme.test');
    const partner = await f.signIn('partner@northwind.test');
    const live = await openLive('acme', session(owner));
    const partnersView = await openLive('acme', session(partner));
    await live.nextTick();
    const suspended = await f.app.inject({
      method: 'PUT',
      url: `/api/partner/northwind/tenants/${f.acme.id}/status`,
      headers: session(partner),
      payload: { status: 'suspended' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const started = Date.now();
    const ended = await endWithin(live, 2000);
    expect(ended, 'the stream still runs 2 s after the suspension').not.toBeNull();
    expect(ended!.at - started).toBeLessThan(1500);
    expect(ended!.end).toMatchObject({ errcode: 1 });
    // A partner still reaches a suspended customer (to look, and to resume it).
    await partnersView.nextTick();
    expect(await endWithin(partnersView, 0)).toBeNull();
    partnersView.close();
  });
});
