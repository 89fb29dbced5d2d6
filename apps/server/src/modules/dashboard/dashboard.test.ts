import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

describe('GET dashboard/{tenant}/summary', () => {
  it('covers 401, 403 for end users, 404 for another or a malformed tenant', async () => {
    expect((await f.app.inject({ url: '/api/dashboard/acme/summary' })).statusCode).toBe(401);
    const endUser = await f.signIn('enduser@acme.test');
    expect(
      (await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(endUser) })).statusCode,
    ).toBe(403);
    const token = await f.signIn('admin@acme.test');
    expect(
      (await f.app.inject({ url: '/api/dashboard/globex/summary', headers: auth(token) })).statusCode,
    ).toBe(404);
    expect(
      (await f.app.inject({ url: '/api/dashboard/Not A Name/summary', headers: auth(token) })).statusCode,
    ).toBe(404);
  });

  it('counts what is in the database, per tenant', async () => {
    const token = await f.signIn('admin@acme.test');
    const before = (await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(token) })).json();
    expect(before).toMatchObject({
      users: 1,
      administrators: 4,
      connectedUsers: 0,
      groups: 2,
      privateAccessUsers: 0,
    });
    await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(token),
      payload: { username: 'p@acme.test', firstname: 'P', lastname: 'A', isprvaccess: true },
    });
    const after = (await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(token) })).json();
    expect(after).toMatchObject({ users: 2, privateAccessUsers: 1 });
    const globex = await f.signIn('admin@globex.test');
    const other = (
      await f.app.inject({ url: '/api/dashboard/globex/summary', headers: auth(globex) })
    ).json();
    expect(other).toMatchObject({ users: 0, administrators: 1, recentEvents: [] });
  });
});
