import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents, users } from '../../db/schema';
import { devices } from '../enrolment/enrolment.tables';
import { policyApi, rule, UNKNOWN_ID } from './policies.test-kit';

const f = useFixture();
const api = policyApi(f);
const base = (tenant = 'acme') => `/api/policy/group/${tenant}`;

let owner: string;
let auditor: string;
let helpdesk: string;
let globexOwner: string;
let policyA: string;
let policyB: string;
let member: string;
let globexGroup: string;
let laptop: string;
let globexPhone: string;

/** An enrolled device, made directly in the database (enrolment is not what these tests are about). */
async function device(tenantId: string, name: string, userId: string | null) {
  const [row] = await f.database.db
    .insert(devices)
    .values({ tenantId, name, os: 'windows', userId, enrolledVia: 'rmm', tokenHash: `hash-${name}` })
    .returning({ id: devices.id });
  return row.id;
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  policyA = await api.create(owner, { type: 'other', name: 'Bundle A', rules: [rule()] });
  policyB = await api.create(owner, { type: 'route', name: 'Bundle B' });
  member = await api.createUser(owner, 'bundled');
  globexGroup = (await api.call('POST', base('globex'), globexOwner, { name: 'Globex bundle' })).json().id;
  laptop = await device(f.acme.id, 'Laptop 17', member);
  globexPhone = await device(f.globex.id, 'Globex phone', null);
});

async function create(body: Record<string, unknown>, token = owner) {
  return api.call('POST', base(), token, body);
}

async function eventsOf(action: string, objectId: string) {
  const rows = await f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, action)));
  return rows.filter((e) => e.objectId === objectId);
}

describe('policy groups API', () => {
  describe('GET policy/group/{tenant}', () => {
    it('covers 401, 403, 404 and lists the policy groups by name with their policies and assignments', async () => {
      expect((await api.call('GET', base())).statusCode).toBe(401);
      expect((await api.call('GET', base(), helpdesk)).statusCode).toBe(403);
      expect((await api.call('GET', base('globex'), owner)).statusCode).toBe(404);
      const created = await create({
        name: 'zz Listed',
        description: 'all of it',
        policyIds: [policyB, policyA],
        groupIds: [f.acme.groupIds[1]],
        userIds: [member],
        deviceIds: [laptop],
      });
      expect(created.statusCode, created.body).toBe(201);
      await create({ name: 'aa Listed' });
      const res = await api.call('GET', base(), auditor);
      expect(res.statusCode).toBe(200);
      const names = res.json().map((g: { name: string }) => g.name);
      expect(names).toEqual(
        [...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      expect(names).not.toContain('Globex bundle');
      expect(res.json().find((g: { name: string }) => g.name === 'zz Listed')).toEqual({
        id: created.json().id,
        name: 'zz Listed',
        description: 'all of it',
        policies: [
          { id: policyA, name: 'Bundle A', type: 'other' },
          { id: policyB, name: 'Bundle B', type: 'route' },
        ],
        groups: [{ id: f.acme.groupIds[1], name: 'Sales' }],
        users: [{ id: member, username: 'bundled@acme.test' }],
        devices: [{ id: laptop, name: 'Laptop 17', username: 'bundled@acme.test' }],
        userCount: expect.any(Number),
        updatedAt: expect.any(String),
      });
    });

    it('counts the users a policy group reaches: assigned directly and through its groups, each once', async () => {
      const group = await api.call('POST', '/api/groups/acme', owner, { name: 'Counted team' });
      expect(group.statusCode, group.body).toBe(201);
      const teamId: string = group.json().id;
      const both = await api.createUser(owner, 'counted-both', [teamId]);
      await api.createUser(owner, 'counted-member', [teamId]);
      const direct = await api.createUser(owner, 'counted-direct');
      await api.createUser(owner, 'counted-outside');
      // `both` is a member and assigned directly: counted once. 2 members + 1 more direct user = 3.
      const created = await create({ name: 'Counted bundle', groupIds: [teamId], userIds: [both, direct] });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().userCount).toBe(3);
      const listed = (await api.call('GET', base(), owner)).json();
      expect(listed.find((g: { name: string }) => g.name === 'Counted bundle').userCount).toBe(3);
      // A new member of the group is counted at once; the detail answers the same count.
      await api.createUser(owner, 'counted-late', [teamId]);
      const detail = await api.call('GET', `${base()}/${created.json().id}`, owner);
      expect(detail.json()).toMatchObject({ users: [{ id: both }, { id: direct }], userCount: 4 });
      // Nobody assigned: nobody counted.
      expect((await create({ name: 'Counted nobody' })).json().userCount).toBe(0);
      // The count is derived, not something an administrator changed: it stays out of the event log.
      const [event] = await eventsOf('policyGroup.create', created.json().id);
      expect(event.after).not.toHaveProperty('userCount');
    });
  });

  describe('GET policy/group/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (other tenant, unknown), 400 and answers the policy group', async () => {
      const id = (await create({ name: 'Readable bundle', policyIds: [policyA] })).json().id;
      const url = `${base()}/${id}`;
      expect((await api.call('GET', url)).statusCode).toBe(401);
      expect((await api.call('GET', url, helpdesk)).statusCode).toBe(403);
      expect((await api.call('GET', url, globexOwner)).statusCode).toBe(404);
      expect((await api.call('GET', `${base()}/${globexGroup}`, owner)).statusCode).toBe(404);
      expect((await api.call('GET', `${base()}/${UNKNOWN_ID}`, owner)).statusCode).toBe(404);
      expect((await api.call('GET', `${base()}/nope`, owner)).json().details[0].path).toBe('params.id');
      const ok = await api.call('GET', url, auditor);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ id, name: 'Readable bundle', policies: [{ id: policyA }] });
      // The policy lists name the policy group.
      const lists = (await api.call('GET', '/api/policy/acme', owner)).json();
      expect(lists.user.find((p: { id: string }) => p.id === policyA).policyGroups).toContainEqual({
        id,
        name: 'Readable bundle',
      });
    });
  });

  describe('POST policy/group/{tenant}', () => {
    it('covers 401, 403, 404, 400 (schema and unknown references) and 409 without writing', async () => {
      expect((await api.call('POST', base(), undefined, { name: 'X' })).statusCode).toBe(401);
      expect((await create({ name: 'X' }, auditor)).statusCode).toBe(403);
      expect((await api.call('POST', base('globex'), owner, { name: 'X' })).statusCode).toBe(404);
      const schema = await create({ name: '', policyIds: ['x'], deviceIds: ['laptop-17'] });
      expect(schema.statusCode).toBe(400);
      expect(
        schema
          .json()
          .details.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual(['body.deviceIds.0', 'body.name', 'body.policyIds.0']);
      const [admin] = await f.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, 'auditor@acme.test'));
      const globexPolicy = await api.create(globexOwner, { type: 'other', name: 'Globex policy' }, 'globex');
      const refs = await create({
        name: 'Broken refs',
        policyIds: [policyA, globexPolicy],
        groupIds: [f.globex.groupIds[0]],
        userIds: [member, admin.id],
        deviceIds: [laptop, globexPhone],
      });
      expect(refs.statusCode).toBe(400);
      expect(refs.json().details).toEqual([
        {
          path: 'body.policyIds.1',
          message: 'policy.validation.unknownPolicy',
          values: { id: globexPolicy },
        },
        { path: 'body.groupIds.0', message: 'validation.unknownGroup', values: { id: f.globex.groupIds[0] } },
        { path: 'body.userIds.1', message: 'validation.unknownUser', values: { id: admin.id } },
        { path: 'body.deviceIds.1', message: 'validation.unknownDevice', values: { id: globexPhone } },
      ]);
      await create({ name: 'Taken bundle' });
      const taken = await create({ name: 'TAKEN bundle' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().details).toEqual([
        { path: 'body.name', message: 'policy.validation.groupNameTaken' },
      ]);
      const names = (await api.call('GET', base(), owner)).json().map((g: { name: string }) => g.name);
      expect(names).not.toContain('Broken refs');
    });

    it('creates a policy group, dropping repeated ids, and logs it', async () => {
      const res = await create({
        name: ' Created bundle ',
        policyIds: [policyA, policyA],
        userIds: [member, member],
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'Created bundle',
        policies: [{ id: policyA }],
        users: [{ id: member }],
      });
      const [event] = await eventsOf('policyGroup.create', res.json().id);
      expect(event).toMatchObject({ objectType: 'policyGroup', objectName: 'Created bundle' });
    });
  });

  describe('PUT policy/group/{tenant}/{id}', () => {
    it('covers 401, 403, 404, 400 and 409, and replaces the policy group with before and after logged', async () => {
      const id = (await create({ name: 'Replaceable', policyIds: [policyA] })).json().id;
      await create({ name: 'Other bundle' });
      const url = `${base()}/${id}`;
      const body = { name: 'Replaced', policyIds: [policyB], groupIds: [f.acme.groupIds[0]] };
      expect((await api.call('PUT', url, undefined, body)).statusCode).toBe(401);
      expect((await api.call('PUT', url, auditor, body)).statusCode).toBe(403);
      expect((await api.call('PUT', url, globexOwner, body)).statusCode).toBe(404);
      expect((await api.call('PUT', `${base()}/${globexGroup}`, owner, body)).statusCode).toBe(404);
      expect((await api.call('PUT', `${base()}/${UNKNOWN_ID}`, owner, body)).statusCode).toBe(404);
      const bad = await api.call('PUT', url, owner, { ...body, userIds: [UNKNOWN_ID] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([
        { path: 'body.userIds.0', message: 'validation.unknownUser', values: { id: UNKNOWN_ID } },
      ]);
      expect((await api.call('PUT', url, owner, { ...body, name: 'other BUNDLE' })).statusCode).toBe(409);
      const ok = await api.call('PUT', url, owner, body);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        name: 'Replaced',
        policies: [{ id: policyB }],
        groups: [{ id: f.acme.groupIds[0], name: 'Engineering' }],
        users: [],
      });
      const [event] = await eventsOf('policyGroup.update', id);
      expect(event).toMatchObject({
        before: { name: 'Replaceable', policies: [{ id: policyA }] },
        after: { name: 'Replaced', policies: [{ id: policyB }] },
      });
    });
  });

  describe('DELETE policy/group/{tenant}', () => {
    it('covers 401, 403, other tenant and 400, and deletes only own policy groups', async () => {
      const id = (await create({ name: 'Doomed bundle', policyIds: [policyA] })).json().id;
      const del = (body: unknown, token?: string, tenant = 'acme') =>
        api.call('DELETE', base(tenant), token, body);
      expect((await del({ ids: [id] })).statusCode).toBe(401);
      expect((await del({ ids: [id] }, auditor)).statusCode).toBe(403);
      expect((await del({ ids: [id] }, owner, 'globex')).statusCode).toBe(404);
      expect((await del({ ids: [] }, owner)).statusCode).toBe(400);
      expect((await del({ ids: [id, globexGroup, id] }, owner)).json()).toEqual({ deleted: 1 });
      expect((await api.call('GET', `${base()}/${id}`, owner)).statusCode).toBe(404);
      expect((await api.call('GET', `${base('globex')}/${globexGroup}`, globexOwner)).statusCode).toBe(200);
      // The policy stays; it no longer names the policy group.
      const policy = await api.get(owner, policyA);
      expect(policy.policyGroups.map((g: { id: string }) => g.id)).not.toContain(id);
      const [event] = await eventsOf('policyGroup.delete', id);
      expect(event.before).toMatchObject({ name: 'Doomed bundle' });
    });
  });

  describe('devices in policy groups', () => {
    it('a removed device leaves its policy groups, the event names them, and the simulator forgets it', async () => {
      const tablet = await device(f.acme.id, 'Tablet 3', member);
      const blocker = await api.create(owner, {
        type: 'other',
        name: 'Tablet blocker',
        rules: [rule({ name: 'No example', url: 'blocked-by-device.example' })],
      });
      const id = (await create({ name: 'Tablets', policyIds: [blocker], deviceIds: [tablet, laptop] })).json()
        .id;
      const simulate = async () =>
        (
          await api.call('POST', '/api/policy/simulate/acme', owner, {
            request: { deviceId: tablet, destination: 'https://blocked-by-device.example/' },
          })
        ).json();
      expect(await simulate()).toMatchObject({ decision: 'block' });

      const removed = await api.call('DELETE', '/api/enrolment/acme/devices', owner, { ids: [tablet] });
      expect(removed.json()).toEqual({ deleted: 1 });
      const group = (await api.call('GET', `${base()}/${id}`, owner)).json();
      expect(group.devices.map((d: { name: string }) => d.name)).toEqual(['Laptop 17']);
      expect(await simulate()).toMatchObject({ decision: 'allow' });
      const [event] = (
        await f.database.db
          .select()
          .from(adminEvents)
          .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, 'device.delete')))
      ).filter((e) => e.objectId === tablet);
      expect(event.before).toMatchObject({ name: 'Tablet 3', policyGroups: [{ id, name: 'Tablets' }] });
    });
  });
});
