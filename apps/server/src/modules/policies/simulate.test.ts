import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from './policies.test-kit';
import { removeRuleReferences, ruleReferenceCounts } from './rule-references.repository';

const f = useFixture();
const api = policyApi(f);
const QOS_CLASS = '5e1f0c2a-9d4b-4c61-8a57-3f0e2b7d1c01';

let owner: string;
let auditor: string;
let helpdesk: string;
let globexOwner: string;
let engineer: string;
let seller: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  engineer = await api.createUser(owner, 'engineer', [f.acme.groupIds[0]]);
  seller = await api.createUser(owner, 'seller', [f.acme.groupIds[1]]);
});

const simulateUrl = (tenant = 'acme') => `/api/policy/simulate/${tenant}`;

type Step = {
  layer: string;
  outcome: string;
  reason: string;
  rule: { ruleId: string; policyId: string } | null;
};

describe('POST policy/simulate/{tenant}', () => {
  it('covers 401, 403, 404 and 400 (schema, unknown user, unreadable destination, unknown draft)', async () => {
    const body = { request: { destination: 'example.com' } };
    expect((await api.call('POST', simulateUrl(), undefined, body)).statusCode).toBe(401);
    expect((await api.call('POST', simulateUrl(), helpdesk, body)).statusCode).toBe(403);
    expect((await api.call('POST', simulateUrl('globex'), owner, body)).statusCode).toBe(404);
    const schema = await api.call('POST', simulateUrl(), owner, {
      request: { destination: '', time: 'yesterday' },
      draft: { policy: { type: 'other', name: '' } },
    });
    expect(schema.statusCode).toBe(400);
    expect(
      schema
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.draft.policy.name', 'body.request.destination', 'body.request.time']);
    const globexUser = await api.createUser(globexOwner, 'far', [], 'globex');
    const server = await api.call('POST', simulateUrl(), owner, {
      request: { destination: 'https://', userId: globexUser },
    });
    expect(server.statusCode).toBe(400);
    expect(server.json().details).toEqual([
      { path: 'body.request.userId', message: 'validation.unknownUser' },
      { path: 'body.request.destination', message: 'policy.validation.destination' },
    ]);
    const draft = await api.call('POST', simulateUrl(), owner, {
      request: { destination: 'example.com' },
      draft: { id: '00000000-0000-4000-8000-000000000000', policy: { type: 'other', name: 'Ghost' } },
    });
    expect(draft.json().details).toEqual([
      { path: 'body.draft.id', message: 'policy.validation.unknownPolicy' },
    ]);
  });

  it('decides against the live policy with a trace naming the matching rule and the resolved context', async () => {
    const id = await api.create(owner, {
      type: 'other',
      name: 'Sim live',
      rules: [
        rule({ name: 'Allow docs', action: 'allow', url: 'docs.sim.example' }),
        rule({ name: 'Block sim', url: 'sim.example' }),
        rule({ name: 'No installers', type: 'SQUID_FILEEXT', url: 'exe' }),
      ],
    });
    const rules = (await api.get(owner, id)).rules;
    const blocked = await api.simulate(auditor, {
      request: { userId: engineer, destination: 'https://www.sim.example/page?q=1' },
    });
    expect(blocked).toMatchObject({
      decision: 'block',
      layer: 'dns',
      rule: {
        policyId: id,
        policyName: 'Sim live',
        ruleId: rules[1].id,
        ruleName: 'Block sim',
        action: 'block',
      },
      context: { host: 'www.sim.example', path: '/page?q=1', port: 443, groups: ['Engineering'] },
    });
    const matched = (blocked.trace as Step[]).filter((s) => s.outcome === 'matched');
    expect(matched.map((s) => s.rule?.ruleId)).toEqual([rules[1].id]);
    const allowStep = (blocked.trace as Step[]).find((s) => s.rule?.ruleId === rules[0].id);
    expect(allowStep).toMatchObject({ layer: 'dns', outcome: 'no-match' });

    const download = await api.simulate(owner, {
      request: { destination: 'https://docs.sim.example/setup.exe' },
    });
    expect(download).toMatchObject({ decision: 'block', layer: 'http', rule: { ruleId: rules[2].id } });
    expect((download.trace as Step[]).find((s) => s.rule?.ruleId === rules[0].id)).toMatchObject({
      outcome: 'matched',
    });
    const docs = await api.simulate(owner, { request: { destination: 'docs.sim.example' } });
    expect(docs.decision).toBe('allow');
  });

  it('answers the gateway of a route rule and the QoS class of a qos policy', async () => {
    await api.create(owner, {
      type: 'route',
      name: 'Sim route',
      rules: [rule({ type: 'ROUTE', action: 'route', url: '10.77.0.0/16', target: 'hq-cybernode' })],
    });
    await api.create(owner, {
      type: 'qos',
      name: 'Sim qos',
      rules: [rule({ type: 'ROUTE', action: 'qos', url: '10.77.0.0/16', target: QOS_CLASS })],
    });
    const routed = await api.simulate(owner, { request: { destination: '10.77.1.2:22' } });
    expect(routed).toMatchObject({
      decision: 'allow',
      gateway: 'hq-cybernode',
      qos: QOS_CLASS,
      context: { ip: '10.77.1.2', port: 22, host: null },
    });
  });

  it('simulates a draft without saving it, replacing a policy or added last', async () => {
    const id = await api.create(owner, {
      type: 'other',
      name: 'Sim draftable',
      rules: [rule({ name: 'Block draft', url: 'draft.example' })],
    });
    const request = { destination: 'draft.example' };
    expect((await api.simulate(owner, { request })).decision).toBe('block');

    const replaced = await api.simulate(owner, {
      request,
      draft: {
        id,
        policy: {
          type: 'other',
          name: 'Sim draftable',
          rules: [rule({ name: 'Now allowed', action: 'allow', url: 'draft.example' })],
        },
      },
    });
    expect(replaced).toMatchObject({ decision: 'allow' });
    expect((replaced.trace as Step[]).find((s) => s.outcome === 'matched')).toMatchObject({
      rule: { policyId: id, ruleName: 'Now allowed' },
    });

    const added = await api.simulate(owner, {
      request: { destination: 'draft-added.example' },
      draft: {
        policy: {
          type: 'other',
          name: 'New draft',
          rules: [rule({ name: 'Draft block', url: 'draft-added.example' })],
        },
      },
    });
    expect(added).toMatchObject({
      decision: 'block',
      rule: { policyId: 'draft', policyName: 'New draft', ruleName: 'Draft block' },
    });

    // Nothing was saved.
    expect((await api.get(owner, id)).rules.map((r: { name: string }) => r.name)).toEqual(['Block draft']);
    const names = Object.values((await api.call('GET', '/api/policy/acme', owner)).json()).flat() as {
      name: string;
    }[];
    expect(names.map((p) => p.name)).not.toContain('New draft');
    expect((await api.simulate(owner, { request })).decision).toBe('block');
  });

  it('makes a change effective immediately', async () => {
    const id = await api.create(owner, {
      type: 'other',
      name: 'Sim immediate',
      rules: [rule({ name: 'Block now', url: 'immediate.example' })],
    });
    const request = { request: { destination: 'immediate.example' } };
    expect((await api.simulate(owner, request)).decision).toBe('block');
    const update = await api.call('PUT', `/api/policy/acme/${id}`, owner, {
      type: 'other',
      name: 'Sim immediate',
      rules: [rule({ name: 'Allow now', action: 'allow', url: 'immediate.example' })],
    });
    expect(update.statusCode).toBe(200);
    expect((await api.simulate(owner, request)).decision).toBe('allow');
    await api.call('PUT', `/api/policy/acme/${id}`, owner, {
      type: 'other',
      name: 'Sim immediate',
      rules: [rule({ name: 'Block again', url: 'immediate.example' })],
    });
    expect((await api.simulate(owner, request)).rule).toMatchObject({ ruleName: 'Block again' });
    await api.call('PUT', `/api/policy/acme/${id}/enabled`, owner, { enabled: false });
    expect((await api.simulate(owner, request)).decision).toBe('allow');
  });

  it('names no rule when nothing matched: the default geo rule is the default, not a decision', async () => {
    const nothing = await api.simulate(owner, {
      request: { destination: 'https://nothing-matches.example/' },
    });
    expect(nothing).toMatchObject({ decision: 'allow', rule: null, layer: null });
    // The trace still shows the default geo rule allowing the network layer, where the engine names it.
    expect((nothing.trace as Step[]).find((s) => s.rule?.ruleId === 'system-default-geo')?.outcome).toBe(
      'matched',
    );
    // A rule that allowed an earlier layer is named instead of the default geo rule after it.
    await api.create(owner, {
      type: 'other',
      name: 'Sim allow early',
      rules: [rule({ name: 'Allow early', action: 'allow', url: 'allowed-early.example' })],
    });
    const early = await api.simulate(owner, { request: { destination: 'https://allowed-early.example/' } });
    expect(early).toMatchObject({ decision: 'allow', layer: 'dns', rule: { ruleName: 'Allow early' } });
  });

  it('applies a policy in a policy group only to its users and groups', async () => {
    const id = await api.create(owner, {
      type: 'other',
      name: 'Sim engineers only',
      rules: [rule({ url: 'only-engineers.example' })],
    });
    const group = await api.call('POST', '/api/policy/group/acme', owner, {
      name: 'Sim engineering',
      policyIds: [id],
      groupIds: [f.acme.groupIds[0]],
    });
    expect(group.statusCode).toBe(201);
    const decide = async (userId?: string) =>
      (
        await api.simulate(owner, {
          request: { destination: 'only-engineers.example', ...(userId ? { userId } : {}) },
        })
      ).decision;
    expect(await decide(engineer)).toBe('block');
    expect(await decide(seller)).toBe('allow');
    expect(await decide()).toBe('allow');
    // A user assigned directly is covered too.
    await api.call('PUT', `/api/policy/group/acme/${group.json().id}`, owner, {
      name: 'Sim engineering',
      policyIds: [id],
      groupIds: [f.acme.groupIds[0]],
      userIds: [seller],
    });
    expect(await decide(seller)).toBe('block');
    await api.call('DELETE', '/api/policy/group/acme', owner, { ids: [group.json().id] });
    expect(await decide()).toBe('block');
  });

  it("decides for a device given alone as its owner would be decided for: the owner's groups count", async () => {
    const id = await api.create(owner, {
      type: 'other',
      name: 'Sim engineers devices',
      rules: [rule({ url: 'engineers-devices.example' })],
    });
    const group = await api.call('POST', '/api/policy/group/acme', owner, {
      name: 'Sim engineering devices',
      policyIds: [id],
      groupIds: [f.acme.groupIds[0]],
    });
    expect(group.statusCode, group.body).toBe(201);
    const deviceOf = async (userId: string, name: string) => {
      const link = await api.call('POST', `/api/enrolment/acme/users/${userId}/link`, owner, {});
      expect(link.statusCode, link.body).toBe(201);
      const enrolled = await api.call('POST', '/api/enrol', undefined, {
        token: link.json().token,
        device: { name, os: 'linux' },
      });
      expect(enrolled.statusCode, enrolled.body).toBe(201);
      return enrolled.json().deviceId as string;
    };
    const engineersLaptop = await deviceOf(engineer, "Engineer's laptop");
    const sellersLaptop = await deviceOf(seller, "Seller's laptop");
    const decide = (request: Record<string, unknown>) =>
      api.simulate(owner, { request: { destination: 'engineers-devices.example', ...request } });
    // Given the user, and given only the user's device: the same decision, through the same group.
    expect((await decide({ userId: engineer })).decision).toBe('block');
    const byDevice = await decide({ deviceId: engineersLaptop });
    expect(byDevice).toMatchObject({ decision: 'block', rule: { policyName: 'Sim engineers devices' } });
    expect(byDevice.context.groups).toEqual(['Engineering']);
    expect((await decide({ deviceId: sellersLaptop })).decision).toBe('allow');
    // A device nobody enrolled (or one deleted since) decides as no one in particular.
    expect((await decide({ deviceId: '00000000-0000-4000-8000-00000000dead' })).decision).toBe('allow');
    expect((await decide({ deviceId: 'kiosk-7' })).decision).toBe('allow');
  });
});

describe('POST policy/lint/{tenant}', () => {
  it('covers 401, 403, 404 and 400', async () => {
    expect((await api.call('POST', '/api/policy/lint/acme', undefined, {})).statusCode).toBe(401);
    expect((await api.call('POST', '/api/policy/lint/acme', helpdesk, {})).statusCode).toBe(403);
    expect((await api.call('POST', '/api/policy/lint/globex', owner, {})).statusCode).toBe(404);
    const bad = await api.call('POST', '/api/policy/lint/acme', owner, {
      draft: { policy: { type: 'other' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('body.draft.policy.name');
  });

  it('reports findings on save (of the saved policy only), live and for a draft', async () => {
    const other = await api.create(owner, {
      type: 'other',
      name: 'Lint elsewhere',
      rules: [
        rule({ name: 'Wide allow', action: 'allow', url: 'lint-elsewhere.example' }),
        rule({ name: 'Narrow block', url: 'a.lint-elsewhere.example' }),
      ],
    });
    const res = await api.call('POST', '/api/policy/acme', owner, {
      type: 'other',
      name: 'Lint me',
      rules: [
        rule({ name: 'Allow all of it', action: 'allow', url: 'lint.example' }),
        rule({ name: 'Never reached', url: 'www.lint.example' }),
      ],
    });
    expect(res.statusCode).toBe(201);
    const { policy, lint } = res.json();
    expect(lint).toEqual([
      expect.objectContaining({
        kind: 'shadowed',
        rule: expect.objectContaining({ policyId: policy.id, ruleName: 'Never reached' }),
        other: expect.objectContaining({ policyId: policy.id, ruleName: 'Allow all of it' }),
      }),
    ]);

    const live = await api.call('POST', '/api/policy/lint/acme', auditor, {});
    expect(live.statusCode).toBe(200);
    const livePolicies = live.json().map((l: { rule: { policyId: string } | null }) => l.rule?.policyId);
    expect(livePolicies).toEqual(expect.arrayContaining([policy.id, other]));

    const draft = await api.call('POST', '/api/policy/lint/acme', owner, {
      draft: {
        id: policy.id,
        policy: { type: 'other', name: 'Lint me', rules: [rule({ name: 'Only one', url: 'lint.example' })] },
      },
    });
    const draftIds = draft.json().map((l: { rule: { policyId: string } | null }) => l.rule?.policyId);
    expect(draftIds).not.toContain(policy.id);
    expect(draftIds).toContain(other);
  });
});

describe('GET policy/where-used/{tenant}', () => {
  const url = (query: string, tenant = 'acme') => `/api/policy/where-used/${tenant}?${query}`;

  it('covers 401, 403, 404 and 400', async () => {
    expect((await api.call('GET', url('kind=app&id=zoom'))).statusCode).toBe(401);
    expect((await api.call('GET', url('kind=app&id=zoom'), helpdesk)).statusCode).toBe(403);
    expect((await api.call('GET', url('kind=app&id=zoom', 'globex'), owner)).statusCode).toBe(404);
    const bad = await api.call('GET', url('kind=printer&id='), owner);
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.id', 'query.kind']);
    const notUuid = await api.call('GET', url('kind=group&id=sales'), owner);
    expect(notUuid.json().details).toEqual([{ path: 'query.id', message: 'validation.uuid' }]);
  });

  it('names the rules using an app, category, feed or location and the policy groups of a group or policy', async () => {
    const created = await api.call('POST', '/api/policy/locations/acme', owner, {
      name: 'Where HQ',
      networks: ['10.1.0.0/16'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = created.json() as { id: string };
    const id = await api.create(owner, {
      type: 'other',
      name: 'Where used',
      rules: [
        rule({ name: 'Calls', type: 'app', action: 'allow', url: 'zoom;slack' }),
        rule({
          name: 'Betting',
          categories: ['gambling'],
          feeds: ['builtin-bogons'],
          url: '',
          locations: [location.id],
        }),
      ],
    });
    const globexId = await api.create(
      globexOwner,
      { type: 'other', name: 'Globex calls', rules: [rule({ type: 'app', url: 'zoom' })] },
      'globex',
    );
    const group = (
      await api.call('POST', '/api/policy/group/acme', owner, {
        name: 'Where bundle',
        policyIds: [id],
        groupIds: [f.acme.groupIds[1]],
      })
    ).json();
    const used = async (query: string) => {
      const res = await api.call('GET', url(query), auditor);
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const zoom = await used('kind=app&id=zoom');
    expect(zoom.rules).toEqual([
      expect.objectContaining({
        policyId: id,
        policyName: 'Where used',
        ruleName: 'Calls',
        type: 'app',
        system: false,
      }),
    ]);
    expect(zoom.rules.map((r: { policyId: string }) => r.policyId)).not.toContain(globexId);
    expect(
      (await used('kind=category&id=gambling')).rules.map((r: { ruleName: string }) => r.ruleName),
    ).toEqual(['Betting']);
    expect(
      (await used('kind=feed&id=builtin-bogons')).rules.map((r: { ruleName: string }) => r.ruleName),
    ).toEqual(['Betting']);
    expect(
      (await used(`kind=location&id=${location.id}`)).rules.map((r: { ruleName: string }) => r.ruleName),
    ).toEqual(['Betting']);
    expect(await used('kind=app&id=no-such-app')).toEqual({ rules: [], policyGroups: [] });
    expect(await used(`kind=group&id=${f.acme.groupIds[1]}`)).toEqual({
      rules: [],
      policyGroups: [{ id: group.id, name: 'Where bundle' }],
    });
    expect(await used(`kind=policy&id=${id}`)).toEqual({
      rules: [],
      policyGroups: [{ id: group.id, name: 'Where bundle' }],
    });

    // The group's usage names the policy group assigned to it.
    const usage = await api.call('GET', `/api/groups/acme/${f.acme.groupIds[1]}/usage`, owner);
    expect(usage.json().references).toEqual([{ type: 'policyGroup', id: group.id, name: 'Where bundle' }]);
  });

  it('counts and removes references for the object screens, deleting rules left with nothing to match', async () => {
    const id = await api.create(owner, {
      type: 'other',
      name: 'Cascade',
      rules: [
        rule({ name: 'Only zoom', type: 'app', url: 'zoom' }),
        rule({ name: 'Zoom and slack', type: 'app', url: 'zoom;slack' }),
        rule({ name: 'Category only', url: '', categories: ['games'] }),
        rule({ name: 'Category and domain', url: 'kept.example', categories: ['games', 'news'] }),
      ],
    });
    const tenantId = f.acme.id;
    const counts = await f.database.tenantTx(tenantId, async (tx) => ({
      apps: await ruleReferenceCounts(tx, tenantId, 'app'),
      categories: await ruleReferenceCounts(tx, tenantId, 'category'),
    }));
    expect(counts.apps.get('zoom')).toBeGreaterThanOrEqual(2);
    expect(counts.apps.get('slack')).toBeGreaterThanOrEqual(1);
    expect(counts.categories.get('games')).toBe(2);
    expect(counts.categories.get('news')).toBe(1);

    await f.database.tenantTx(tenantId, async (tx) => {
      await removeRuleReferences(tx, tenantId, 'app', ['zoom']);
      await removeRuleReferences(tx, tenantId, 'category', ['games']);
    });
    const rules = (await api.get(owner, id)).rules as { name: string; url: string; categories: string[] }[];
    expect(rules.map((r) => [r.name, r.url, r.categories])).toEqual([
      ['Zoom and slack', 'slack', []],
      ['Category and domain', 'kept.example', ['news']],
    ]);
  });
});
