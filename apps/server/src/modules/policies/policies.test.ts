import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { policyApi, rule, UNKNOWN_ID } from './policies.test-kit';

const f = useFixture();
const api = policyApi(f);
const QOS_CLASS = '5e1f0c2a-9d4b-4c61-8a57-3f0e2b7d1c01';

let owner: string;
let auditor: string;
let helpdesk: string;
let globexOwner: string;
let globexPolicy: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  globexPolicy = await api.create(
    globexOwner,
    { type: 'other', name: 'Globex only', rules: [rule()] },
    'globex',
  );
});

async function eventsOf(action: string, objectId?: string) {
  const rows = await f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, action)));
  return objectId ? rows.filter((e) => e.objectId === objectId) : rows;
}

async function lists(token = owner) {
  const res = await api.call('GET', '/api/policy/acme', token);
  expect(res.statusCode).toBe(200);
  return res.json() as Record<'qos' | 'user' | 'device', { id: string; name: string; precedence: number }[]>;
}

/** Adds a system rule to a policy the way the system does (not through the editor). */
async function addSystemRule(policyId: string, position: number, name: string) {
  await f.database.db.execute(
    sql`insert into policy_rules (tenant_id, policy_id, position, name, type, url, action, issysgen)
      values (${f.acme.id}, ${policyId}, ${position}, ${name}, 'ROUTE', '172.16.0.0/12', 'allow', true)`,
  );
}

describe('policies API', () => {
  describe('GET policy/{tenant}', () => {
    it('covers 401, 403 and 404', async () => {
      expect((await api.call('GET', '/api/policy/acme')).statusCode).toBe(401);
      expect((await api.call('GET', '/api/policy/acme', helpdesk)).statusCode).toBe(403);
      expect(
        (await api.call('GET', '/api/policy/acme', await f.signIn('billing@acme.test'))).statusCode,
      ).toBe(403);
      expect((await api.call('GET', '/api/policy/globex', owner)).statusCode).toBe(404);
      expect((await api.call('GET', '/api/policy/acme', globexOwner)).statusCode).toBe(404);
    });

    it('answers the three lists by precedence, with rule counts and policy group names', async () => {
      const qos = await api.create(owner, {
        type: 'qos',
        name: 'List qos',
        rules: [rule({ action: 'qos', target: QOS_CLASS })],
      });
      const first = await api.create(owner, { type: 'other', name: 'List first', rules: [rule(), rule()] });
      const second = await api.create(owner, { type: 'other', name: 'List second' });
      const device = await api.create(owner, {
        type: 'route',
        name: 'List device',
        rules: [rule({ type: 'ROUTE', action: 'route', url: '10.0.0.0/8', target: 'hq-cybernode' })],
      });
      const group = await api.call('POST', '/api/policy/group/acme', owner, {
        name: 'List bundle',
        policyIds: [first],
      });
      expect(group.statusCode).toBe(201);

      const all = await lists(auditor);
      const user = all.user.filter((p) => [first, second].includes(p.id));
      expect(user.map((p) => p.name)).toEqual(['List first', 'List second']);
      expect(all.user.map((p) => p.precedence)).toEqual(
        [...all.user.map((p) => p.precedence)].sort((a, b) => a - b),
      );
      expect(all.user.find((p) => p.id === first)).toMatchObject({
        type: 'other',
        ruleCount: 2,
        enabled: true,
        policyGroups: [{ id: group.json().id, name: 'List bundle' }],
      });
      expect(all.user.find((p) => p.id === second)).toMatchObject({ ruleCount: 0, policyGroups: [] });
      expect(all.qos.map((p) => p.id)).toContain(qos);
      expect(all.device.map((p) => p.id)).toContain(device);
      expect(all.device.map((p) => p.id)).not.toContain(first);
      // The other tenant's policies are not listed.
      expect(
        Object.values(all)
          .flat()
          .map((p) => p.id),
      ).not.toContain(globexPolicy);
    });
  });

  describe('GET policy/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (other tenant, unknown), 400 and answers the policy with its rules', async () => {
      const id = await api.create(owner, {
        type: 'other',
        name: 'Readable',
        description: 'to read',
        rules: [rule({ name: 'One', url: 'one.example' })],
      });
      const url = `/api/policy/acme/${id}`;
      expect((await api.call('GET', url)).statusCode).toBe(401);
      expect((await api.call('GET', url, helpdesk)).statusCode).toBe(403);
      expect((await api.call('GET', url, globexOwner)).statusCode).toBe(404);
      expect((await api.call('GET', `/api/policy/acme/${globexPolicy}`, owner)).statusCode).toBe(404);
      expect((await api.call('GET', `/api/policy/globex/${id}`, globexOwner)).statusCode).toBe(404);
      expect((await api.call('GET', `/api/policy/acme/${UNKNOWN_ID}`, owner)).statusCode).toBe(404);
      const bad = await api.call('GET', '/api/policy/acme/not-a-uuid', owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe('params.id');
      const ok = await api.call('GET', url, auditor);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        id,
        name: 'Readable',
        description: 'to read',
        ruleCount: 1,
        rules: [
          {
            name: 'One',
            type: 'dmn',
            url: 'one.example',
            action: 'block',
            target: '',
            ports: '',
            categories: [],
            feeds: [],
            locations: [],
            schedule: null,
            enabled: true,
            issysgen: false,
          },
        ],
      });
    });
  });

  describe('POST policy/{tenant}', () => {
    it('covers 401, 403, 404 and schema 400s without writing anything', async () => {
      const body = { type: 'other', name: 'Never saved' };
      expect((await api.call('POST', '/api/policy/acme', undefined, body)).statusCode).toBe(401);
      expect((await api.call('POST', '/api/policy/acme', auditor, body)).statusCode).toBe(403);
      expect((await api.call('POST', '/api/policy/acme', helpdesk, body)).statusCode).toBe(403);
      expect((await api.call('POST', '/api/policy/globex', owner, body)).statusCode).toBe(404);
      const bad = await api.call('POST', '/api/policy/acme', owner, {
        type: 'firewall',
        name: ' ',
        rules: [{ name: 'x', type: 'GEO', action: 'rewrite', url: 'DE', ports: '80-80' }],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.type', message: 'policy.validation.policyType' },
          { path: 'body.name', message: 'validation.required' },
          { path: 'body.rules.0.ports', message: 'validation.portList' },
        ]),
      );
      const wrongAction = await api.call('POST', '/api/policy/acme', owner, {
        type: 'other',
        name: 'Wrong action',
        rules: [{ name: 'x', type: 'GEO', action: 'rewrite', url: 'DE' }],
      });
      expect(wrongAction.json().details).toEqual([
        { path: 'body.rules.0.action', message: 'policy.validation.actionForType' },
      ]);
      const all = await lists();
      expect(
        Object.values(all)
          .flat()
          .map((p) => p.name),
      ).not.toContain('Never saved');
    });

    it('checks every matcher, target, port and object reference, naming the item at fault', async () => {
      const res = await api.call('POST', '/api/policy/acme', owner, {
        type: 'other',
        name: 'All wrong',
        rules: [
          rule({ name: 'route rule 1', type: 'ROUTE', url: '10.0.0.0/8' }),
          rule({ type: 'ROUTE', url: '10.0.0.0/8;10.0.0.0/33' }),
          rule({ type: 'GEO', url: 'DE;Germany' }),
          rule({ type: 'dmn', url: 'good.example;bad_domain' }),
          rule({ type: 'url', url: 'example.com/a path' }),
          rule({ type: 'SQUID_KEYWORD', url: 'casino;two words' }),
          rule({ type: 'SQUID_FILEEXT', url: 'exe;toolongextension' }),
          rule({ type: 'app', url: 'zoom;no-such-app' }),
          rule({ type: 'dmn', url: '', categories: ['gambling', 'no-such-category'] }),
          rule({
            type: 'DNS_REWRITE',
            action: 'rewrite',
            url: 'intranet.example.com',
            target: 'not a target',
          }),
          rule({ type: 'ROUTE', action: 'route', url: '10.0.0.0/8' }),
          rule({ type: 'dmn', action: 'qos', target: QOS_CLASS }),
          rule({ type: 'dmn', url: 'a.example;A.example' }),
          rule({ type: 'dmn', ports: '443' }),
          rule({
            type: 'ROUTE',
            url: '10.0.0.0/8',
            ports: Array.from({ length: 17 }, (_, i) => String(1000 + i)).join(','),
          }),
          rule({ type: 'dmn', url: '' }),
          rule({ type: 'dmn', locations: [UNKNOWN_ID] }),
          rule({ type: 'dmn', feeds: ['no-such-feed'] }),
          rule({ type: 'GEO', url: 'DE', categories: ['gambling'] }),
          rule({ type: 'dmn', action: 'allow', target: 'gw-1' }),
          rule({ type: 'dmn', categories: ['gambling', 'gambling'] }),
          rule({ type: 'ROUTE', url: '10.0.0.1', ports: '80,443,80' }),
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([
        { path: 'body.rules.0.name', message: 'policy.validation.systemName' },
        {
          path: 'body.rules.1.url',
          message: 'policy.validation.routeMatcher',
          values: { item: '10.0.0.0/33' },
        },
        { path: 'body.rules.2.url', message: 'policy.validation.country', values: { item: 'Germany' } },
        {
          path: 'body.rules.3.url',
          message: 'policy.validation.domainMatcher',
          values: { item: 'bad_domain' },
        },
        {
          path: 'body.rules.4.url',
          message: 'policy.validation.urlMatcher',
          values: { item: 'example.com/a path' },
        },
        { path: 'body.rules.5.url', message: 'policy.validation.keyword', values: { item: 'two words' } },
        {
          path: 'body.rules.6.url',
          message: 'policy.validation.fileExtension',
          values: { item: 'toolongextension' },
        },
        {
          path: 'body.rules.7.url',
          message: 'policy.validation.unknownApp',
          values: { item: 'no-such-app' },
        },
        {
          path: 'body.rules.8.categories.1',
          message: 'policy.validation.unknownCategory',
          values: { id: 'no-such-category' },
        },
        { path: 'body.rules.9.target', message: 'policy.validation.rewriteTarget' },
        { path: 'body.rules.10.target', message: 'policy.validation.gateway' },
        { path: 'body.rules.11.action', message: 'policy.validation.qosAction' },
        { path: 'body.rules.12.url', message: 'validation.duplicate', values: { item: 'A.example' } },
        { path: 'body.rules.13.ports', message: 'policy.validation.portsNotAllowed' },
        { path: 'body.rules.14.ports', message: 'policy.validation.tooManyPorts' },
        { path: 'body.rules.15.url', message: 'policy.validation.emptyMatcher' },
        {
          path: 'body.rules.16.locations.0',
          message: 'policy.validation.unknownLocation',
          values: { id: UNKNOWN_ID },
        },
        {
          path: 'body.rules.17.feeds.0',
          message: 'policy.validation.unknownFeed',
          values: { id: 'no-such-feed' },
        },
        { path: 'body.rules.18.categories', message: 'policy.validation.categoriesNotAllowed' },
        { path: 'body.rules.19.target', message: 'policy.validation.targetNotAllowed' },
        { path: 'body.rules.20.categories.1', message: 'validation.duplicate', values: { item: 'gambling' } },
        { path: 'body.rules.21.ports', message: 'validation.duplicate', values: { item: '80' } },
      ]);
      const all = await lists();
      expect(
        Object.values(all)
          .flat()
          .map((p) => p.name),
      ).not.toContain('All wrong');
    });

    it('keeps QoS actions to QoS policies and QoS policies to QoS actions with a class id', async () => {
      const res = await api.call('POST', '/api/policy/acme', owner, {
        type: 'qos',
        name: 'Bad qos',
        rules: [rule({ action: 'block' }), rule({ action: 'qos', target: 'fast' })],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([
        { path: 'body.rules.0.action', message: 'policy.validation.qosPolicyAction' },
        { path: 'body.rules.1.target', message: 'policy.validation.qosTarget' },
      ]);
    });

    it('accepts every matcher form, stores matchers normalised, and puts the policy last in its list', async () => {
      const before = await lists();
      const res = await api.call('POST', '/api/policy/acme', owner, {
        type: 'other',
        name: '  Every form  ',
        description: ' all of them ',
        rules: [
          rule({ type: 'ROUTE', url: '*;10.1.2.3;192.168.0.0/16', ports: '80, 8000-8080' }),
          rule({ type: 'GEO', url: 'de\nFR;*' }),
          rule({
            type: 'dmn',
            url: 'Example.COM,*.corp.example;https://www.example.org/',
            feeds: ['builtin-bogons'],
          }),
          rule({ type: 'SQUID_DMN', url: 'video.example', categories: ['streaming-media'] }),
          rule({ type: 'url', url: 'Example.com/Downloads;10.0.0.1/admin' }),
          rule({ type: 'SQUID_KEYWORD', url: 'casino;poker' }),
          rule({ type: 'SQUID_FILEEXT', url: '.EXE;msi' }),
          rule({ type: 'app', action: 'allow', url: 'zoom;slack', ports: '443' }),
          rule({ type: 'DNS_REWRITE', action: 'rewrite', url: 'intranet.example.com', target: '10.0.0.5' }),
          rule({
            type: 'DNS_REWRITE',
            action: 'rewrite',
            url: 'wiki.example.com',
            target: 'wiki.corp.example',
          }),
          rule({ type: 'ROUTE', action: 'route', url: '172.16.0.0/12', target: 'hq-cybernode' }),
          rule({
            type: 'dmn',
            action: 'allow',
            url: 'news.example',
            schedule: { days: [1, 2, 3, 4, 5], from: '12:00', to: '13:00' },
            enabled: false,
          }),
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      const saved = res.json();
      expect(saved.policy).toMatchObject({ name: 'Every form', description: 'all of them', ruleCount: 12 });
      expect(saved.policy.rules.map((r: { url: string }) => r.url)).toEqual([
        '*;10.1.2.3;192.168.0.0/16',
        'DE;FR;*',
        'example.com;*.corp.example;www.example.org',
        'video.example',
        'example.com/Downloads;10.0.0.1/admin',
        'casino;poker',
        '.exe;msi',
        'zoom;slack',
        'intranet.example.com',
        'wiki.example.com',
        '172.16.0.0/12',
        'news.example',
      ]);
      expect(saved.policy.rules[0].ports).toBe('80,8000-8080');
      expect(saved.policy.rules[11]).toMatchObject({
        enabled: false,
        schedule: { days: [1, 2, 3, 4, 5], from: '12:00', to: '13:00' },
      });
      expect(saved.lint).toEqual(expect.any(Array));
      const after = await lists();
      expect(after.user.map((p) => p.id)).toEqual([...before.user.map((p) => p.id), saved.policy.id]);
      expect(after.user.at(-1)?.precedence).toBeGreaterThan(before.user.at(-1)?.precedence ?? 0);

      const [event] = await eventsOf('policy.create', saved.policy.id);
      expect(event).toMatchObject({
        objectType: 'policy',
        objectName: 'Every form',
        actorName: 'admin@acme.test',
      });
      expect((event.after as { rules: unknown[] }).rules).toHaveLength(12);
    });

    it('refuses a policy name taken in the tenant, ignoring case (409), but not one of another tenant', async () => {
      await api.create(owner, { type: 'other', name: 'Unique name' });
      const res = await api.call('POST', '/api/policy/acme', owner, { type: 'route', name: ' UNIQUE name ' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'conflict',
        details: [{ path: 'body.name', message: 'policy.validation.nameTaken' }],
      });
      await api.create(globexOwner, { type: 'other', name: 'Unique name' }, 'globex');
    });
  });

  describe('PUT policy/{tenant}/{id}', () => {
    it('covers 401, 403, 404, 400 and 409 without changing anything', async () => {
      const id = await api.create(owner, { type: 'other', name: 'Guarded', rules: [rule()] });
      await api.create(owner, { type: 'other', name: 'Taken' });
      const url = `/api/policy/acme/${id}`;
      const body = { type: 'other', name: 'Renamed' };
      expect((await api.call('PUT', url, undefined, body)).statusCode).toBe(401);
      expect((await api.call('PUT', url, auditor, body)).statusCode).toBe(403);
      expect((await api.call('PUT', url, globexOwner, body)).statusCode).toBe(404);
      expect((await api.call('PUT', `/api/policy/acme/${globexPolicy}`, owner, body)).statusCode).toBe(404);
      expect((await api.call('PUT', `/api/policy/acme/${UNKNOWN_ID}`, owner, body)).statusCode).toBe(404);
      const bad = await api.call('PUT', url, owner, {
        type: 'other',
        name: 'x',
        rules: [rule({ url: 'nope nope' })],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([
        {
          path: 'body.rules.0.url',
          message: 'policy.validation.domainMatcher',
          values: { item: 'nope nope' },
        },
      ]);
      const unknownRule = await api.call('PUT', url, owner, {
        type: 'other',
        name: 'x',
        rules: [rule({ id: UNKNOWN_ID })],
      });
      expect(unknownRule.json().details).toEqual([
        { path: 'body.rules.0.id', message: 'policy.validation.unknownRule' },
      ]);
      const taken = await api.call('PUT', url, owner, { type: 'other', name: 'taken' });
      expect(taken.statusCode).toBe(409);
      expect((await api.get(owner, id)).name).toBe('Guarded');
    });

    it('replaces fields and rules, keeping the ids of edited rules, and logs before and after', async () => {
      const id = await api.create(owner, {
        type: 'other',
        name: 'Editable',
        rules: [rule({ name: 'Keep', url: 'keep.example' }), rule({ name: 'Drop', url: 'drop.example' })],
      });
      const before = await api.get(owner, id);
      const [keep] = before.rules;
      const res = await api.call('PUT', `/api/policy/acme/${id}`, owner, {
        type: 'other',
        name: 'Edited',
        description: 'new',
        enabled: false,
        rules: [
          rule({ name: 'Added', url: 'added.example' }),
          { ...keep, name: 'Kept', url: 'kept.example' },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      const saved = res.json().policy;
      expect(saved).toMatchObject({ name: 'Edited', description: 'new', enabled: false, ruleCount: 2 });
      expect(saved.rules.map((r: { name: string }) => r.name)).toEqual(['Added', 'Kept']);
      expect(saved.rules[1].id).toBe(keep.id);
      expect(saved.rules[0].id).not.toBe(before.rules[1].id);
      const [event] = await eventsOf('policy.update', id);
      expect(event.before).toMatchObject({ name: 'Editable', rules: [{ name: 'Keep' }, { name: 'Drop' }] });
      expect(event.after).toMatchObject({ name: 'Edited', rules: [{ name: 'Added' }, { name: 'Kept' }] });
    });

    it('moves a policy whose type changes list to the end of its new list', async () => {
      const id = await api.create(owner, { type: 'other', name: 'Mover' });
      await api.create(owner, { type: 'route', name: 'Device resident' });
      const res = await api.call('PUT', `/api/policy/acme/${id}`, owner, { type: 'route', name: 'Mover' });
      expect(res.statusCode).toBe(200);
      const after = await lists();
      expect(after.user.map((p) => p.id)).not.toContain(id);
      expect(after.device.at(-1)?.id).toBe(id);
    });

    it('keeps system rules as they are and refuses to edit them or to name a rule like one', async () => {
      const id = await api.create(owner, {
        type: 'other',
        name: 'With system rules',
        rules: [rule({ name: 'Own' })],
      });
      await addSystemRule(id, -1, 'route rule head office');
      await addSystemRule(id, 5, 'ZTNA tail');
      const before = await api.get(owner, id);
      expect(before.rules.map((r: { name: string }) => r.name)).toEqual([
        'route rule head office',
        'Own',
        'ZTNA tail',
      ]);
      const [head, own, tail] = before.rules;

      const edit = await api.call('PUT', `/api/policy/acme/${id}`, owner, {
        type: 'other',
        name: 'With system rules',
        rules: [{ ...head, url: '0.0.0.0/0' }, own],
      });
      expect(edit.statusCode).toBe(400);
      expect(edit.json().details).toEqual([
        { path: 'body.rules.0.name', message: 'policy.validation.systemName' },
        { path: 'body.rules.0.id', message: 'policy.validation.systemRule' },
      ]);
      const named = await api.call('PUT', `/api/policy/acme/${id}`, owner, {
        type: 'other',
        name: 'With system rules',
        rules: [rule({ name: 'trust-path to HQ' })],
      });
      expect(named.json().details).toEqual([
        { path: 'body.rules.0.name', message: 'policy.validation.systemName' },
      ]);

      const ok = await api.call('PUT', `/api/policy/acme/${id}`, owner, {
        type: 'other',
        name: 'With system rules',
        rules: [rule({ name: 'New first' }), own],
      });
      expect(ok.statusCode, ok.body).toBe(200);
      const rules = ok.json().policy.rules;
      expect(rules.map((r: { name: string }) => r.name)).toEqual([
        'route rule head office',
        'New first',
        'Own',
        'ZTNA tail',
      ]);
      expect(rules[0]).toEqual(head);
      expect(rules[3]).toEqual(tail);
    });
  });

  describe('PUT policy/{tenant}/{id}/enabled', () => {
    it('covers 401, 403, 404, 400 and enables and disables with a log entry', async () => {
      const id = await api.create(owner, { type: 'other', name: 'Switchable', rules: [rule()] });
      const url = `/api/policy/acme/${id}/enabled`;
      expect((await api.call('PUT', url, undefined, { enabled: false })).statusCode).toBe(401);
      expect((await api.call('PUT', url, auditor, { enabled: false })).statusCode).toBe(403);
      expect((await api.call('PUT', url, globexOwner, { enabled: false })).statusCode).toBe(404);
      expect(
        (await api.call('PUT', `/api/policy/acme/${globexPolicy}/enabled`, owner, { enabled: false }))
          .statusCode,
      ).toBe(404);
      const bad = await api.call('PUT', url, owner, { enabled: 'no' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe('body.enabled');

      const off = await api.call('PUT', url, owner, { enabled: false });
      expect(off.statusCode).toBe(200);
      expect(off.json().policy).toMatchObject({ id, enabled: false });
      expect((await api.get(owner, id)).enabled).toBe(false);
      const [event] = await eventsOf('policy.disable', id);
      expect(event).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
      expect((await api.call('PUT', url, owner, { enabled: true })).json().policy.enabled).toBe(true);
      expect(await eventsOf('policy.enable', id)).toHaveLength(1);
    });
  });

  describe('POST policy/{tenant}/{id}/copy', () => {
    it('covers 401, 403, 404 and 400', async () => {
      const id = await api.create(owner, { type: 'other', name: 'Copy guard' });
      const url = `/api/policy/acme/${id}/copy`;
      expect((await api.call('POST', url, undefined, {})).statusCode).toBe(401);
      expect((await api.call('POST', url, auditor, {})).statusCode).toBe(403);
      expect((await api.call('POST', url, globexOwner, {})).statusCode).toBe(404);
      expect((await api.call('POST', `/api/policy/acme/${globexPolicy}/copy`, owner, {})).statusCode).toBe(
        404,
      );
      expect((await api.call('POST', `/api/policy/acme/${UNKNOWN_ID}/copy`, owner, {})).statusCode).toBe(404);
      const bad = await api.call('POST', url, owner, { name: '  ' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([{ path: 'body.name', message: 'validation.required' }]);
      const taken = await api.call('POST', url, owner, { name: 'copy GUARD' });
      expect(taken.statusCode).toBe(409);
    });

    it('copies own rules disabled right after the original, with a unique name', async () => {
      const original = await api.create(owner, {
        type: 'route',
        name: 'Original',
        rules: [rule({ name: 'Net', type: 'ROUTE', url: '10.0.0.0/8' })],
      });
      const next = await api.create(owner, { type: 'route', name: 'Next after original' });
      await addSystemRule(original, 9, 'IP rule generated');

      const first = await api.call('POST', `/api/policy/acme/${original}/copy`, owner, {});
      expect(first.statusCode, first.body).toBe(201);
      const copy = first.json().policy;
      expect(copy).toMatchObject({ name: 'Copy of Original', type: 'route', enabled: false, ruleCount: 1 });
      expect(copy.rules).toMatchObject([{ name: 'Net', url: '10.0.0.0/8', issysgen: false }]);
      expect(copy.rules[0].id).not.toBe((await api.get(owner, original)).rules[0].id);
      const second = (await api.call('POST', `/api/policy/acme/${original}/copy`, owner, {})).json().policy;
      expect(second.name).toBe('Copy of Original (2)');
      const named = (
        await api.call('POST', `/api/policy/acme/${original}/copy`, owner, { name: 'Branch copy' })
      ).json().policy;

      const device = (await lists()).device.map((p) => p.id);
      const at = device.indexOf(original);
      expect(device.slice(at, at + 5)).toEqual([original, named.id, second.id, copy.id, next]);
      const [event] = await eventsOf('policy.copy', copy.id);
      expect(event).toMatchObject({ before: { copiedFrom: { id: original, name: 'Original' } } });
    });
  });

  describe('PUT policy/{tenant}/order', () => {
    it('covers 401, 403, 404 and 400 (not exactly the list) without reordering', async () => {
      const a = await api.create(owner, { type: 'qos', name: 'Order qos A' });
      const b = await api.create(owner, { type: 'qos', name: 'Order qos B' });
      const ids = (await lists()).qos.map((p) => p.id);
      const put = (body: unknown, token?: string, tenant = 'acme') =>
        api.call('PUT', `/api/policy/${tenant}/order`, token, body);
      expect((await put({ list: 'qos', ids })).statusCode).toBe(401);
      expect((await put({ list: 'qos', ids }, auditor)).statusCode).toBe(403);
      expect((await put({ list: 'qos', ids }, owner, 'globex')).statusCode).toBe(404);
      const schema = await put({ list: 'everything', ids: ['x'] }, owner);
      expect(schema.statusCode).toBe(400);
      expect(
        schema
          .json()
          .details.map((d: { path: string }) => d.path)
          .sort(),
      ).toEqual(['body.ids.0', 'body.list']);
      const otherList = (await lists()).user[0].id;
      for (const wrong of [
        ids.slice(1),
        [...ids, otherList],
        [...ids, ids[0]],
        [...ids.slice(1), globexPolicy],
      ]) {
        const res = await put({ list: 'qos', ids: wrong }, owner);
        expect(res.statusCode).toBe(400);
        expect(res.json().details).toEqual([
          { path: 'body.ids', message: 'policy.validation.orderMismatch' },
        ]);
      }
      expect((await lists()).qos.map((p) => p.id)).toEqual(ids);
      expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
    });

    it('rewrites the precedence of one list and logs the old and new order', async () => {
      await api.create(owner, { type: 'other', name: 'Reorder extra' });
      const before = await lists();
      const reversed = [...before.user.map((p) => p.id)].reverse();
      const res = await api.call('PUT', '/api/policy/acme/order', owner, { list: 'user', ids: reversed });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.map((p: { id: string }) => p.id)).toEqual(reversed);
      expect(res.json().user.map((p: { precedence: number }) => p.precedence)).toEqual(
        reversed.map((_, i) => i + 1),
      );
      expect(res.json().device).toEqual(before.device);
      expect((await lists()).user.map((p) => p.id)).toEqual(reversed);
      const [event] = (await eventsOf('policy.reorder')).filter((e) => e.objectId === 'user');
      expect((event.after as { id: string }[]).map((p) => p.id)).toEqual(reversed);
    });
  });

  describe('DELETE policy/{tenant}', () => {
    it('covers 401, 403, other tenant and 400, and deletes only own policies', async () => {
      const a = await api.create(owner, { type: 'other', name: 'Doomed A', rules: [rule()] });
      const b = await api.create(owner, { type: 'qos', name: 'Doomed B' });
      const del = (body: unknown, token?: string, tenant = 'acme') =>
        api.call('DELETE', `/api/policy/${tenant}`, token, body);
      expect((await del({ ids: [a] })).statusCode).toBe(401);
      expect((await del({ ids: [a] }, auditor)).statusCode).toBe(403);
      expect((await del({ ids: [a] }, owner, 'globex')).statusCode).toBe(404);
      expect((await del({ ids: [a] }, globexOwner, 'globex')).json()).toEqual({ deleted: 0 });
      const bad = await del({ ids: [] }, owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([{ path: 'body.ids', message: 'validation.required' }]);

      const ok = await del({ ids: [a, b, a, globexPolicy, UNKNOWN_ID] }, owner);
      expect(ok.json()).toEqual({ deleted: 2 });
      expect((await api.call('GET', `/api/policy/acme/${a}`, owner)).statusCode).toBe(404);
      expect((await api.call('GET', `/api/policy/globex/${globexPolicy}`, globexOwner)).statusCode).toBe(200);
      const deletes = [...(await eventsOf('policy.delete', a)), ...(await eventsOf('policy.delete', b))];
      expect(deletes.map((e) => e.objectName).sort()).toEqual(['Doomed A', 'Doomed B']);
      expect(deletes.find((e) => e.objectId === a)?.before).toMatchObject({
        rules: [{ url: 'example.com' }],
      });
    });
  });
});
