import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { policyApi, rule, UNKNOWN_ID } from './policies.test-kit';

const f = useFixture();
const api = policyApi(f);

let owner: string;
let auditor: string;
let helpdesk: string;
let globexOwner: string;
let globexUser: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  globexUser = await api.createUser(globexOwner, 'outsider', [], 'globex');
});

const testsUrl = (tenant = 'acme') => `/api/policy/tests/${tenant}`;

async function listTests(token = owner) {
  const res = await api.call('GET', testsUrl(), token);
  expect(res.statusCode).toBe(200);
  return res.json() as { id: string; name: string; actual: string; passing: boolean }[];
}

describe('policy tests API', () => {
  describe('GET policy/tests/{tenant}', () => {
    it('covers 401, 403, 404 and answers each test with its outcome against the live policy', async () => {
      expect((await api.call('GET', testsUrl())).statusCode).toBe(401);
      expect((await api.call('GET', testsUrl(), helpdesk)).statusCode).toBe(403);
      expect((await api.call('GET', testsUrl('globex'), owner)).statusCode).toBe(404);

      await api.create(owner, {
        type: 'other',
        name: 'Outcome policy',
        rules: [rule({ url: 'outcome.example' })],
      });
      const blocked = await api.createTest(owner, {
        name: 'Outcome blocked',
        request: { destination: 'https://a.outcome.example/' },
        expect: 'block',
      });
      const wrong = await api.createTest(owner, {
        name: 'Outcome wrongly allowed',
        request: { destination: 'outcome.example' },
        expect: 'allow',
      });
      const all = await listTests(auditor);
      expect(all.find((t) => t.id === blocked.id)).toMatchObject({ actual: 'block', passing: true });
      expect(all.find((t) => t.id === wrong.id)).toMatchObject({ actual: 'block', passing: false });
    });
  });

  describe('POST policy/tests/{tenant}', () => {
    it('covers 401, 403, 404 and 400 (schema, unknown user, unreadable destination, bad source)', async () => {
      const body = { name: 'T', request: { destination: 'example.com' }, expect: 'allow' };
      expect((await api.call('POST', testsUrl(), undefined, body)).statusCode).toBe(401);
      expect((await api.call('POST', testsUrl(), auditor, body)).statusCode).toBe(403);
      expect((await api.call('POST', testsUrl('globex'), owner, body)).statusCode).toBe(404);
      const schema = await api.call('POST', testsUrl(), owner, {
        name: '',
        request: { destination: '', userId: 'x', protocol: 'icmp' },
        expect: 'maybe',
      });
      expect(schema.statusCode).toBe(400);
      expect(
        schema
          .json()
          .details.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual([
        'body.expect',
        'body.name',
        'body.request.destination',
        'body.request.protocol',
        'body.request.userId',
      ]);
      const server = await api.call('POST', testsUrl(), owner, {
        name: 'Bad request',
        request: { destination: 'not a destination', userId: globexUser, sourceIp: '300.1.1.1' },
        expect: 'allow',
      });
      expect(server.statusCode).toBe(400);
      expect(server.json().details).toEqual([
        { path: 'body.request.userId', message: 'validation.unknownUser' },
        { path: 'body.request.destination', message: 'policy.validation.destination' },
        { path: 'body.request.sourceIp', message: 'policy.validation.sourceIp' },
      ]);
      expect((await listTests()).map((t) => t.name)).not.toContain('Bad request');
    });

    it('pins an expectation, even one that fails now, and logs it', async () => {
      const user = await api.createUser(owner, 'pinned', [f.acme.groupIds[0]]);
      const test = await api.createTest(owner, {
        name: 'Pinned',
        request: { userId: user, destination: 'https://never-blocked.example/x', sourceIp: '203.0.113.9' },
        expect: 'block',
      });
      expect(test).toMatchObject({
        name: 'Pinned',
        request: {
          userId: user,
          destination: 'https://never-blocked.example/x',
          sourceIp: '203.0.113.9',
          protocol: 'tcp',
        },
        expect: 'block',
        actual: 'allow',
        passing: false,
      });
      const [event] = await f.database.db
        .select()
        .from(adminEvents)
        .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, 'policyTest.create')))
        .then((rows) => rows.filter((e) => e.objectId === test.id));
      expect(event).toMatchObject({
        objectType: 'policyTest',
        objectName: 'Pinned',
        after: { expect: 'block' },
      });
    });
  });

  describe('PUT policy/tests/{tenant}/{id}', () => {
    it('covers 401, 403, 404, 400 and changes the expectation', async () => {
      const test = await api.createTest(owner, {
        name: 'Changeable',
        request: { destination: 'changeable.example' },
        expect: 'block',
      });
      const globexTest = await api.createTest(
        globexOwner,
        { name: 'Globex test', request: { destination: 'g.example' }, expect: 'allow' },
        'globex',
      );
      const url = `${testsUrl()}/${test.id}`;
      const body = {
        name: 'Changed',
        request: { destination: 'changeable.example', protocol: 'udp' },
        expect: 'allow',
      };
      expect((await api.call('PUT', url, undefined, body)).statusCode).toBe(401);
      expect((await api.call('PUT', url, auditor, body)).statusCode).toBe(403);
      expect((await api.call('PUT', url, globexOwner, body)).statusCode).toBe(404);
      expect((await api.call('PUT', `${testsUrl()}/${globexTest.id}`, owner, body)).statusCode).toBe(404);
      expect((await api.call('PUT', `${testsUrl()}/${UNKNOWN_ID}`, owner, body)).statusCode).toBe(404);
      const bad = await api.call('PUT', url, owner, { ...body, request: { destination: '::::' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([
        { path: 'body.request.destination', message: 'policy.validation.destination' },
      ]);
      const ok = await api.call('PUT', url, owner, body);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        id: test.id,
        name: 'Changed',
        expect: 'allow',
        request: { protocol: 'udp' },
        actual: 'allow',
        passing: true,
      });
    });
  });

  describe('DELETE policy/tests/{tenant}', () => {
    it('covers 401, 403, other tenant and 400, and deletes only own tests', async () => {
      const test = await api.createTest(owner, {
        name: 'Doomed test',
        request: { destination: 'd.example' },
        expect: 'allow',
      });
      const globexTest = await api.createTest(
        globexOwner,
        { name: 'Globex keeps', request: { destination: 'g.example' }, expect: 'allow' },
        'globex',
      );
      const del = (body: unknown, token?: string, tenant = 'acme') =>
        api.call('DELETE', testsUrl(tenant), token, body);
      expect((await del({ ids: [test.id] })).statusCode).toBe(401);
      expect((await del({ ids: [test.id] }, auditor)).statusCode).toBe(403);
      expect((await del({ ids: [test.id] }, owner, 'globex')).statusCode).toBe(404);
      expect((await del({ ids: ['x'] }, owner)).json().details[0].path).toBe('body.ids.0');
      expect((await del({ ids: [test.id, globexTest.id] }, owner)).json()).toEqual({ deleted: 1 });
      expect((await listTests()).map((t) => t.id)).not.toContain(test.id);
      const globex = (await api.call('GET', testsUrl('globex'), globexOwner)).json();
      expect(globex.map((t: { id: string }) => t.id)).toContain(globexTest.id);
    });
  });

  describe('the change guard', () => {
    it('refuses every kind of change that breaks a policy test with 409 and the failures, changing nothing', async () => {
      const block = await api.create(owner, {
        type: 'other',
        name: 'Guard block',
        rules: [rule({ name: 'Casino', url: 'casino.example' })],
      });
      const allow = await api.create(owner, {
        type: 'other',
        name: 'Guard allow',
        rules: [rule({ name: 'Casino ok', action: 'allow', url: 'casino.example' })],
      });
      const test = await api.createTest(owner, {
        name: 'Casino stays blocked',
        request: { destination: 'https://www.casino.example/' },
        expect: 'block',
      });
      expect(test.passing).toBe(true);
      const before = await api.get(owner, block);
      const order = (await api.call('GET', '/api/policy/acme', owner))
        .json()
        .user.map((p: { id: string }) => p.id);
      const eventCount = async () =>
        (
          await f.database.db
            .select()
            .from(adminEvents)
            .where(and(eq(adminEvents.tenantId, f.acme.id), like(adminEvents.action, 'policy%')))
        ).length;
      const events = await eventCount();

      const refusals = [
        await api.call('PUT', `/api/policy/acme/${block}`, owner, {
          type: 'other',
          name: 'Guard block',
          rules: [],
        }),
        await api.call('PUT', `/api/policy/acme/${block}/enabled`, owner, { enabled: false }),
        await api.call('DELETE', '/api/policy/acme', owner, { ids: [block] }),
        await api.call('PUT', '/api/policy/acme/order', owner, {
          list: 'user',
          ids: [allow, ...order.filter((id: string) => id !== allow)],
        }),
        await api.call('POST', '/api/policy/group/acme', owner, {
          name: 'Guard narrows',
          policyIds: [block],
          groupIds: [f.acme.groupIds[0]],
        }),
      ];
      for (const res of refusals) {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({ code: 'policy_tests_failed', errcode: 19 });
      }
      expect(refusals[0].json().failures).toEqual([
        {
          testId: test.id,
          name: 'Casino stays blocked',
          expect: 'block',
          actual: 'allow',
          // The rule that allowed (DNS), not the default geo rule that let the network layer through after it.
          rule: expect.objectContaining({ ruleName: 'Casino ok', action: 'allow' }),
        },
      ]);
      // Nothing changed: the policy, the order, the policy groups, the log.
      expect(await api.get(owner, block)).toEqual(before);
      expect(
        (await api.call('GET', '/api/policy/acme', owner)).json().user.map((p: { id: string }) => p.id),
      ).toEqual(order);
      const groups = (await api.call('GET', '/api/policy/group/acme', owner)).json();
      expect(groups.map((g: { name: string }) => g.name)).not.toContain('Guard narrows');
      expect(await eventCount()).toBe(events);
      expect((await listTests()).find((t) => t.id === test.id)).toMatchObject({ passing: true });

      // A change that keeps the test passing goes through, although other tests of the tenant already fail.
      expect((await listTests()).some((t) => !t.passing)).toBe(true);
      const ok = await api.call('PUT', `/api/policy/acme/${block}`, owner, {
        type: 'other',
        name: 'Guard block',
        rules: [
          rule({ name: 'Casino', url: 'casino.example' }),
          rule({ name: 'More', url: 'poker.example' }),
        ],
      });
      expect(ok.statusCode).toBe(200);
      // Once the test is gone, the refused change is accepted.
      await api.call('DELETE', testsUrl(), owner, { ids: [test.id] });
      expect(
        (await api.call('PUT', `/api/policy/acme/${block}/enabled`, owner, { enabled: false })).statusCode,
      ).toBe(200);
    });

    it('names no rule in a failure that nothing matched ("allowed by default")', async () => {
      const policy = await api.create(owner, {
        type: 'other',
        name: 'Guard lone block',
        rules: [rule({ name: 'Lone', url: 'lone-block.example' })],
      });
      const test = await api.createTest(owner, {
        name: 'Lone stays blocked',
        request: { destination: 'https://lone-block.example/' },
        expect: 'block',
      });
      const refused = await api.call('DELETE', '/api/policy/acme', owner, { ids: [policy] });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().failures).toEqual([
        { testId: test.id, name: 'Lone stays blocked', expect: 'block', actual: 'allow', rule: null },
      ]);
      await api.call('DELETE', testsUrl(), owner, { ids: [test.id] });
    });
  });
});
