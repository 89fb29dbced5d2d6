import { BLOCK_PAGE_ADDRESS_PLACEHOLDER } from '@palisade/contracts';
import { generateKeyPair, parseAudiences } from '@palisade/gateway-config';
import { nftDecide, parseRpz, rpzLookup } from '@palisade/gateway-config/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from '../policies/policies.test-kit';

/**
 * Policies for some subjects reach the gateways for exactly the devices they name (issue 23 §1): a policy carried
 * by a policy group assigned to a user group applies to the tunnel addresses of its members' devices — in the
 * nftables sets, the squid ACLs and the RPZ zone of their audience — and to no other address; a membership
 * change makes a new bundle for the waiting gateways.
 */
const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });

let owner: string;
let credential: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const bundleOf = (have?: string, wait = 0) =>
  f.app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: { authorization: `Bearer ${credential}`, ...(have ? { 'if-none-match': `"${have}"` } : {}) },
  });

/** Enrols a device for an end user through an enrolment link: answers its tunnel address. */
async function deviceOf(userId: string, name: string): Promise<string> {
  const link = await call('POST', `/enrolment/acme/users/${userId}/link`, owner, {});
  expect(link.statusCode, link.body).toBe(201);
  const res = await call('POST', '/enrol', undefined, {
    token: link.json().token,
    device: { name, os: 'linux' },
    publicKey: generateKeyPair().publicKey,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json().wireguard.address as string).replace('/32', '');
}

let sales: string;
let alice: string;
let bob: string;
let aliceAddress: string;
let bobAddress: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const created = await call('POST', '/cybernodes/acme', owner, {
    name: 'Scoped',
    kind: 'cgw',
    region: 'Berlin',
  });
  const enrolled = await call('POST', '/gw/enrol', undefined, {
    token: created.json().enrolmentToken.token,
    publicKey: generateKeyPair().publicKey,
    hostname: 'scoped-gw',
    version: '1.0.0',
  });
  credential = enrolled.json().credential;
  const group = await call('POST', '/groups/acme', owner, { name: 'Scoped sales' });
  expect(group.statusCode, group.body).toBe(201);
  sales = group.json().id;
  alice = await policies.createUser(owner, 'scoped-alice', [sales]);
  bob = await policies.createUser(owner, 'scoped-bob');
  aliceAddress = await deviceOf(alice, 'Alice laptop');
  bobAddress = await deviceOf(bob, 'Bob laptop');
  const policyId = await policies.create(owner, {
    type: 'other',
    name: 'Sales restrictions',
    rules: [
      rule({ name: 'No betting', type: 'dmn', url: 'bets.example' }),
      rule({ name: 'No SSH out', type: 'ROUTE', url: '93.184.216.0/24', ports: '22' }),
      rule({ name: 'No downloads', type: 'SQUID_FILEEXT', url: 'exe' }),
    ],
  });
  const bundle = await call('POST', '/policy/group/acme', owner, {
    name: 'Sales bundle',
    policyIds: [policyId],
    groupIds: [sales],
  });
  expect(bundle.statusCode, bundle.body).toBe(201);
});

describe("a group's policy at the gateway", () => {
  it("applies to the member's device in every artefact and not to another user's device", async () => {
    const { artefacts, skipped } = (await bundleOf()).json();
    // Network layer: the rule matches the member's address only.
    const ssh = (src: string) =>
      nftDecide(artefacts.nftables, { src, dst: '93.184.216.34', proto: 'tcp', port: 22, time: Date.now() })
        .verdict;
    expect(ssh(aliceAddress)).toBe('reject');
    expect(ssh(bobAddress)).not.toBe('reject');
    // DNS layer: the member's address is a client of an audience whose zone blocks; everyone's zone does not.
    const audiences = parseAudiences(artefacts.rpzAudiences);
    const mine = audiences.filter((a) => a.clients.includes(aliceAddress));
    expect(mine).toHaveLength(1);
    // The policy shows the block page (the default): its DNS block answers the block page's address, which each
    // gateway replaces with its own.
    expect(rpzLookup(parseRpz(mine[0].zone), 'www.bets.example')).toEqual({
      kind: 'a',
      value: BLOCK_PAGE_ADDRESS_PLACEHOLDER,
    });
    expect(audiences.some((a) => a.clients.includes(bobAddress))).toBe(false);
    expect(rpzLookup(parseRpz(artefacts.rpz), 'www.bets.example').kind).toBe('none');
    // HTTP layer: squid matches the member's source address.
    expect(artefacts.squid).toContain(aliceAddress);
    expect(artefacts.squid).not.toContain(bobAddress);
    // Nothing of the policy is reported as not enforced.
    expect(skipped.filter((s: { reason: string }) => /subject/.test(s.reason))).toEqual([]);
  });

  it('reaches a waiting gateway when the other user joins the group', async () => {
    const before = (await bundleOf()).json();
    const waiting = bundleOf(before.version, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const joined = await call('POST', `/groups/acme/${sales}/members`, owner, { userIds: [bob] });
    expect(joined.statusCode, joined.body).toBe(200);
    const started = Date.now();
    const after = await waiting;
    expect(after.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    const { artefacts } = after.json();
    const audiences = parseAudiences(artefacts.rpzAudiences);
    expect(audiences.find((a) => a.clients.includes(bobAddress))?.clients).toContain(aliceAddress);
    expect(
      nftDecide(artefacts.nftables, {
        src: bobAddress,
        dst: '93.184.216.34',
        proto: 'tcp',
        port: 22,
        time: Date.now(),
      }).verdict,
    ).toBe('reject');
    await call('DELETE', `/groups/acme/${sales}/members`, owner, { userIds: [bob] });
  });
});
