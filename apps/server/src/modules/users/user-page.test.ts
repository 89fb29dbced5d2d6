import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

/** What a user's page reads besides the user: their devices, and their recent activity in the event log. */
const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function newUser(owner: string, name: string) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/acme',
    headers: auth(owner),
    payload: { username: `${name}@acme.test`, firstname: name, lastname: 'Page' },
  });
  return res.json().id as string;
}

describe("a user's page", () => {
  it("reads one object's history from the event log (objectId), newest first", async () => {
    const owner = await f.signIn('admin@acme.test');
    const ann = await newUser(owner, 'page.ann');
    const ben = await newUser(owner, 'page.ben');
    await f.app.inject({
      method: 'PUT',
      url: `/api/subscriber/user/acme/${ann}`,
      headers: auth(owner),
      payload: { lastname: 'Renamed' },
    });
    const res = await f.app.inject({ url: `/api/events/admin/acme?objectId=${ann}`, headers: auth(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((e: { action: string; objectId: string }) => [e.action, e.objectId])).toEqual(
      [
        ['user.update', ann],
        ['user.create', ann],
      ],
    );
    const other = await f.app.inject({ url: `/api/events/admin/acme?objectId=${ben}`, headers: auth(owner) });
    expect(other.json().items).toHaveLength(1);
    // Another tenant's administrator sees none of it.
    const globex = await f.signIn('admin@globex.test');
    const foreign = await f.app.inject({
      url: `/api/events/admin/globex?objectId=${ann}`,
      headers: auth(globex),
    });
    expect(foreign.json().items).toEqual([]);
    const tooLong = await f.app.inject({
      url: `/api/events/admin/acme?objectId=${'x'.repeat(101)}`,
      headers: auth(owner),
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('lists one user with their devices and link (userId), and refuses a malformed id', async () => {
    const owner = await f.signIn('admin@acme.test');
    const ann = await newUser(owner, 'page.devices');
    await newUser(owner, 'page.other');
    const link = await f.app.inject({
      method: 'POST',
      url: `/api/enrolment/acme/users/${ann}/link`,
      headers: auth(owner),
      payload: {},
    });
    await f.app.inject({
      method: 'POST',
      url: '/api/enrol',
      payload: { token: link.json().token, device: { name: 'Ann laptop', os: 'mac' } },
    });
    const res = await f.app.inject({ url: `/api/enrolment/acme/users?userId=${ann}`, headers: auth(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(1);
    expect(res.json().items[0]).toMatchObject({
      id: ann,
      username: 'page.devices@acme.test',
      devices: [expect.objectContaining({ name: 'Ann laptop', os: 'mac' })],
    });
    const bad = await f.app.inject({ url: '/api/enrolment/acme/users?userId=nope', headers: auth(owner) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('query.userId');
  });
});
