import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, useFixture } from '../../test/helper';
import { policyApi } from '../modules/policies/policies.test-kit';
import { seedPolicies } from './policies';

const f = useFixture();
const api = policyApi(f);

let owner: string;
let engineer: string;
let seller: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  engineer = await api.createUser(owner, 'eng', [f.acme.groupIds[0]]);
  seller = await api.createUser(owner, 'sal', [f.acme.groupIds[1]]);
  const ctx = await acmeOwnerCtx(f);
  await seedPolicies(f.database, ctx);
});

describe('demo policies', () => {
  it('seeds policies in all three lists, policy groups and passing policy tests', async () => {
    const lists = (await api.call('GET', '/api/policy/acme', owner)).json();
    const names = (list: { name: string }[]) => list.map((p) => p.name);
    expect(names(lists.user)).toEqual([
      'Block gambling',
      'Allow developer tools',
      'Block executable downloads',
    ]);
    expect(names(lists.device)).toEqual(['Route corporate networks']);
    expect(names(lists.qos)).toEqual(['Video calls priority']);
    const groups = (await api.call('GET', '/api/policy/group/acme', owner)).json();
    expect(
      groups.map((g: { name: string; groups: { name: string }[] }) => [g.name, g.groups.map((x) => x.name)]),
    ).toEqual([
      ['Engineering', ['Engineering']],
      ['Office staff', ['Sales']],
    ]);
    const tests = (await api.call('GET', '/api/policy/tests/acme', owner)).json();
    expect(tests).toHaveLength(3);
    expect(tests.every((t: { passing: boolean }) => t.passing)).toBe(true);
  });

  it('decides as the demo describes', async () => {
    const decide = async (userId: string, destination: string) =>
      (await api.simulate(owner, { request: { userId, destination } })).decision;
    expect(await decide(engineer, 'https://www.bet365.com/')).toBe('block');
    expect(await decide(seller, 'https://downloads.example.com/setup.exe')).toBe('block');
    expect(await decide(engineer, 'https://downloads.example.com/setup.exe')).toBe('allow');
    const call = await api.simulate(owner, {
      request: { userId: engineer, destination: 'https://zoom.us/j/1' },
    });
    expect(call.qos).toBe('5e1f0c2a-9d4b-4c61-8a57-3f0e2b7d1c01');
    const routed = await api.simulate(owner, { request: { destination: '10.1.2.3:443' } });
    expect(routed.gateway).toBe('hq-cybernode');
  });
});
