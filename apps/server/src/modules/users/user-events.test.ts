import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

// What the users area writes into the event log: people and groups by name, counts worded for people.
const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

/** The newest event of an action in acme's log, with its before and after values. */
async function lastEvent(token: string, action: string) {
  const list = await f.app.inject({
    url: `/api/events/admin/acme?action=${action}&limit=1`,
    headers: auth(token),
  });
  expect(list.statusCode).toBe(200);
  const [item] = list.json().items as Array<{ id: string }>;
  const detail = await f.app.inject({ url: `/api/events/admin/acme/${item.id}`, headers: auth(token) });
  return detail.json() as {
    objectName: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  };
}

describe('events of the users area', () => {
  it('name the groups of a created or changed user, not their ids', async () => {
    const admin = await f.signIn('admin@acme.test');
    const [engineering, sales] = f.acme.groupIds;
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(admin),
      payload: { username: 'named@acme.test', firstname: 'Nora', lastname: 'Named', groups: [sales] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().groups).toEqual([sales]); // the API still answers ids
    expect((await lastEvent(admin, 'user.create')).after.groups).toEqual(['Sales']);

    const updated = await f.app.inject({
      method: 'PUT',
      url: `/api/subscriber/user/acme/${created.json().id}`,
      headers: auth(admin),
      payload: { groups: [engineering, sales] },
    });
    expect(updated.statusCode).toBe(200);
    const event = await lastEvent(admin, 'user.update');
    expect(event.before.groups).toEqual(['Sales']);
    expect([...(event.after.groups as string[])].sort()).toEqual(['Engineering', 'Sales']);
  });

  it('name the users and the group of a bulk change, and count one user as one user', async () => {
    const admin = await f.signIn('admin@acme.test');
    const [, sales] = f.acme.groupIds;
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(admin),
      payload: { username: 'bulked@acme.test', firstname: 'Bo', lastname: 'Bulked' },
    });
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme/bulk',
      headers: auth(admin),
      payload: { ids: [created.json().id], action: 'addToGroup', groupId: sales },
    });
    expect(res.statusCode).toBe(202);
    const event = await lastEvent(admin, 'user.bulk.addToGroup');
    expect(event.objectName).toBe('1 user');
    expect(event.after).toMatchObject({
      action: 'addToGroup',
      group: { id: sales, name: 'Sales' },
      changed: 1,
      users: ['bulked@acme.test'],
    });
    expect(event.after).not.toHaveProperty('ids');
    expect(event.after).not.toHaveProperty('groupId');
  });
});
