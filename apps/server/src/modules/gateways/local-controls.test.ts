import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from '../policies/policies.test-kit';

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let owner: string;
let auditor: string;
let billing: string;
let globex: string;
let site: { id: string; credential: string };
let cybernodeId: string;
let feedId: string;
let localPolicyId: string;

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token = owner, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: auth(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const bundleOf = async (credential: string) =>
  (
    await f.app.inject({
      method: 'GET',
      url: '/api/gw/bundle?wait=0',
      headers: { authorization: `Bearer ${credential}` },
    })
  ).json();

async function enrolled(name: string, kind: string) {
  const created = await call('POST', '/cybernodes/acme', owner, { name, kind, region: 'Köln' });
  const done = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: name.toLowerCase().replace(/\W/g, '-'),
      version: '1.0.0',
    },
  });
  return { id: created.json().cybernode.id as string, credential: done.json().credential as string };
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  site = await enrolled('Store Köln', 'cgwr');
  cybernodeId = (await enrolled('Cloud Köln', 'cybernode')).id;
  const feed = await call('POST', '/policy/feeds/acme/upload', owner, {
    name: 'Bad hosts',
    fileName: 'bad.txt',
    content: 'evil.example\n198.51.100.66\n',
  });
  expect(feed.statusCode, feed.body).toBe(201);
  feedId = feed.json().id;
  localPolicyId = await policies.create(owner, {
    type: 'other',
    name: 'No social media in the store',
    rules: [rule({ name: 'Social', type: 'dmn', action: 'block', url: 'social.example' })],
  });
});

describe('local controls of a site gateway', () => {
  it('answers 401, 403 and 404 (a cybernode, another tenant) in that order', async () => {
    expect((await f.app.inject({ url: `/api/devices/acme/${site.id}/local-controls` })).statusCode).toBe(401);
    expect((await call('GET', `/devices/acme/${site.id}/local-controls`, billing)).statusCode).toBe(403);
    expect((await call('PUT', `/devices/acme/${site.id}/local-controls`, auditor, {})).statusCode).toBe(403);
    expect((await call('GET', `/devices/acme/${cybernodeId}/local-controls`)).statusCode).toBe(404);
    expect((await call('GET', `/devices/globex/${site.id}/local-controls`, globex)).statusCode).toBe(404);
    expect((await call('PUT', `/devices/globex/${site.id}/local-controls`, globex, {})).statusCode).toBe(404);
  });

  it('refuses what does not exist, a ninth policy and a bad country, with the fields, saving nothing', async () => {
    const bad = await call('PUT', `/devices/acme/${site.id}/local-controls`, owner, {
      policyIds: [UNKNOWN_ID],
      categories: ['no-such-category'],
      countries: ['XYZ'],
      feeds: [UNKNOWN_ID],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['body.countries.0']);
    const unknown = await call('PUT', `/devices/acme/${site.id}/local-controls`, owner, {
      policyIds: [UNKNOWN_ID],
      categories: ['no-such-category'],
      feeds: [UNKNOWN_ID],
    });
    expect(unknown.json().details).toEqual([
      { path: 'body.policyIds.0', message: 'validation.unknownPolicy' },
      { path: 'body.categories.0', message: 'validation.unknownCategory' },
      { path: 'body.feeds.0', message: 'validation.unknownFeed' },
    ]);
    const nine = Array.from({ length: 9 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
    const tooMany = await call('PUT', `/devices/acme/${site.id}/local-controls`, owner, { policyIds: nine });
    expect(tooMany.json().details).toEqual([
      { path: 'body.policyIds', message: 'validation.maxLocalPolicies' },
    ]);
    const shown = (await call('GET', `/devices/acme/${site.id}/local-controls`)).json();
    expect(shown).toMatchObject({ policyIds: [], categories: [], countries: [], feeds: [], updatedAt: null });
    expect((await bundleOf(site.credential)).artefacts.local).toBeUndefined();
  });

  it('compiles the chosen policy, categories, feeds and countries for the LANs into its own bundle', async () => {
    const before = (await bundleOf(site.credential)).version;
    const saved = await call('PUT', `/devices/acme/${site.id}/local-controls`, owner, {
      policyIds: [localPolicyId],
      categories: ['malware'],
      countries: ['KP'],
      feeds: [feedId],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().policies).toEqual([
      { id: localPolicyId, name: 'No social media in the store', type: 'other', enabled: true },
    ]);
    const bundle = await bundleOf(site.credential);
    expect(bundle.version).not.toBe(before);
    const { nftables, rpz } = bundle.artefacts.local;
    expect(nftables).toContain('table inet palisade_local {');
    // Only connections entering from the LAN (no site configuration yet: lan0).
    expect(nftables).toContain('iifname != { "lan0" } accept');
    expect(nftables).toContain('198.51.100.66');
    expect(rpz).toContain('$ORIGIN rpz-local.palisade.');
    expect(rpz).toMatch(/^evil\.example\s/m);
    expect(rpz).toMatch(/^social\.example\s/m);
    // The tenant's own policy table is untouched by it.
    expect(bundle.artefacts.nftables).not.toContain('palisade_local');
    const list = (await call('GET', '/devices/acme/local-controls')).json();
    expect(list.items.find((item: { gatewayId: string }) => item.gatewayId === site.id)).toMatchObject({
      categories: ['malware'],
      countries: ['KP'],
    });
  });
});
