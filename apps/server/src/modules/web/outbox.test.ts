import { describe, expect, it } from 'vitest';
import { addPlatformAdmin, useFixture } from '../../../test/helper';
import { loadConfig } from '../../config';

const auth = (token: string) => ({ 'x-auth-token': token });

/** Sends an invitation, whose mail carries a link that takes over the invited account. */
async function inviteSomeone(f: ReturnType<typeof useFixture>) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/admins/acme/invite',
    headers: auth(await f.signIn('admin@acme.test')),
    payload: {
      email: 'invited@acme.test',
      firstname: 'In',
      lastname: 'Vited',
      role: 'auditor',
      customRoleId: null,
    },
  });
  expect(res.statusCode).toBe(201);
}

describe('the dev outbox, by default', () => {
  const f = useFixture();

  it('is not served at all, not even to a platform administrator', async () => {
    await addPlatformAdmin(f.database);
    await inviteSomeone(f);
    expect((await f.app.inject({ url: '/api/dev/outbox' })).statusCode).toBe(404);
    const root = await f.signIn('root@platform.test');
    const res = await f.app.inject({ url: '/api/dev/outbox', headers: auth(root) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errcode: 4, code: 'not_found' });
    expect(res.body).not.toContain('/verify/');
  });
});

describe('the dev outbox with DEV_OUTBOX=true', () => {
  const f = useFixture({ devOutbox: true });

  it('answers 401 without a session and 403 to anyone but a platform administrator', async () => {
    await addPlatformAdmin(f.database);
    await inviteSomeone(f);
    expect((await f.app.inject({ url: '/api/dev/outbox' })).statusCode).toBe(401);
    for (const who of ['admin@acme.test', 'partner@northwind.test']) {
      const res = await f.app.inject({ url: '/api/dev/outbox', headers: auth(await f.signIn(who)) });
      expect(res.statusCode, who).toBe(403);
      expect(res.body).not.toContain('/verify/');
    }
  });

  it('lists the mail to a platform administrator, filtered by address', async () => {
    const root = await f.signIn('root@platform.test');
    const res = await f.app.inject({ url: '/api/dev/outbox?to=invited@acme.test', headers: auth(root) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ to: 'invited@acme.test', text: expect.stringContaining('/verify/') }),
    ]);
  });
});

describe('the dev outbox in production', () => {
  it('stays closed even with DEV_OUTBOX=true', () => {
    expect(loadConfig({ DEV_OUTBOX: 'true' }, []).devOutbox).toBe(true);
    expect(loadConfig({ DEV_OUTBOX: 'true', NODE_ENV: 'production' }, []).devOutbox).toBe(false);
    expect(loadConfig({}, []).devOutbox).toBe(false);
  });
});
