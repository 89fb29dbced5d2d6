import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { policyApi, rule } from '../policies/policies.test-kit';

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });

const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let auditor: string;
let billing: string;
let credential: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  const created = await call('POST', '/cybernodes/acme', owner, {
    name: 'Edge',
    kind: 'cgw',
    region: 'Berlin',
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: wireguardPublicKey(),
      hostname: 'edge.acme.test',
      version: '1.0.0',
    },
  });
  credential = enrolled.json().credential;
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const bundleOf = async (have?: string, wait = 0) => {
  const res = await f.app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: { authorization: `Bearer ${credential}`, ...(have ? { 'if-none-match': `"${have}"` } : {}) },
  });
  return res;
};

const NEW_POLICY = {
  type: 'other',
  name: 'Block preview.example',
  rules: [rule({ name: 'Block preview', url: 'preview.example' })],
};

describe('cybernodes/{tenant}/preview: what a save would push', () => {
  it('covers 401, 403, 404 for another tenant and 400 with details', async () => {
    const body = { policyId: null, policy: NEW_POLICY };
    expect((await call('POST', '/cybernodes/acme/preview', undefined, body)).statusCode).toBe(401);
    expect((await call('POST', '/cybernodes/acme/preview', billing, body)).statusCode).toBe(403);
    expect((await call('POST', '/cybernodes/globex/preview', owner, body)).statusCode).toBe(404);
    const bad = await call('POST', '/cybernodes/acme/preview', owner, {
      policyId: 'nope',
      policy: { ...NEW_POLICY, name: '' },
    });
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.policyId', 'body.policy.name']));
  });

  it('names the gateways and the RPZ lines a new block adds, and saves nothing', async () => {
    const before = (await call('GET', '/policy/acme', owner)).json();
    const res = await call('POST', '/cybernodes/acme/preview', auditor, {
      policyId: null,
      policy: NEW_POLICY,
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview.nextVersion).not.toBe(preview.currentVersion);
    expect(preview.gateways.map((g: { name: string }) => g.name)).toEqual(['Edge']);
    const rpz = preview.artefacts.find((a: { artefact: string }) => a.artefact === 'rpz');
    expect(rpz.added).toBeGreaterThan(0);
    expect(rpz.diff).toMatch(/^\+preview\.example/m);
    const nft = preview.artefacts.find((a: { artefact: string }) => a.artefact === 'nftables');
    expect(nft).toMatchObject({ added: 0, removed: 0, diff: '' });
    // Nothing saved: the same policies, no event, and the gateway's bundle is unchanged.
    expect((await call('GET', '/policy/acme', owner)).json()).toEqual(before);
    const logged = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.objectName, NEW_POLICY.name)));
    expect(logged).toEqual([]);
    expect((await bundleOf()).json().artefacts.rpz).not.toContain('preview.example');
  });

  it('refuses what the save would refuse (a taken name) with the same error', async () => {
    await policies.create(owner, { type: 'other', name: 'Taken name', rules: [] });
    const res = await call('POST', '/cybernodes/acme/preview', owner, {
      policyId: null,
      policy: { ...NEW_POLICY, name: 'Taken name' },
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('cybernodes/{tenant}/bundles: history and rollback', () => {
  it('covers 401, 403, 404 for another tenant and 400 with details', async () => {
    expect((await call('GET', '/cybernodes/acme/bundles')).statusCode).toBe(401);
    expect((await call('GET', '/cybernodes/acme/bundles', billing)).statusCode).toBe(403);
    expect((await call('GET', '/cybernodes/globex/bundles', owner)).statusCode).toBe(404);
    const version = (await bundleOf()).json().version.split('.')[0];
    expect((await call('POST', `/cybernodes/acme/bundles/${version}/push`, auditor)).statusCode).toBe(403);
    expect((await call('POST', `/cybernodes/globex/bundles/${version}/push`, owner)).statusCode).toBe(404);
    const bad = await call('POST', '/cybernodes/acme/bundles/not-a-version/push', owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'params.version', message: 'validation.invalid' }]);
    expect((await call('GET', '/cybernodes/acme/bundles/0123456789abcdef/diff', owner)).statusCode).toBe(404);
  });

  it('pushes a previous bundle back: a waiting gateway gets it, the log says so, and the next change moves on', async () => {
    const first = (await bundleOf()).json();
    const firstTenantVersion = first.version.split('.')[0];
    await policies.create(owner, {
      type: 'other',
      name: 'Block rollback.example',
      rules: [rule({ name: 'Block rollback', url: 'rollback.example' })],
    });
    const second = (await bundleOf(first.version)).json();
    expect(second.artefacts.rpz).toContain('rollback.example');

    const list = (await call('GET', '/cybernodes/acme/bundles', auditor)).json().items;
    expect(list[0]).toMatchObject({ isCurrent: true, pinnedAt: null });
    expect(list.map((b: { version: string }) => b.version)).toContain(firstTenantVersion);

    const diff = (await call('GET', `/cybernodes/acme/bundles/${firstTenantVersion}/diff`, auditor)).json();
    const rpz = diff.artefacts.find((a: { artefact: string }) => a.artefact === 'rpz');
    expect(rpz.diff).toMatch(/^-rollback\.example/m);

    const waiting = bundleOf(second.version, 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pushed = await call('POST', `/cybernodes/acme/bundles/${firstTenantVersion}/push`, owner);
    expect(pushed.statusCode, pushed.body).toBe(200);
    expect(pushed.json()).toMatchObject({
      version: firstTenantVersion,
      isCurrent: true,
      pinnedAt: expect.any(String),
    });
    const rolledBack = await waiting;
    expect(rolledBack.statusCode).toBe(200);
    expect(rolledBack.json().version).toBe(first.version);
    expect(rolledBack.json().artefacts.rpz).not.toContain('rollback.example');
    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, 'gateway.rollback')));
    expect(event).toMatchObject({ objectName: firstTenantVersion });

    // The next policy change makes a new current bundle again (the pin ends).
    await policies.create(owner, {
      type: 'other',
      name: 'Block after.example',
      rules: [rule({ name: 'Block after', url: 'after.example' })],
    });
    const after = (await bundleOf(first.version)).json();
    expect(after.artefacts.rpz).toContain('after.example');
    expect(after.artefacts.rpz).toContain('rollback.example');
  });

  it("blocks a country with the GeoIP database's ranges for it, the ranges the simulator decides by", async () => {
    const before = (await bundleOf()).json();
    const geo = await call('PUT', '/policy/geo/acme', owner, { blocked: ['KP'] });
    expect(geo.statusCode, geo.body).toBe(200);
    const after = (await bundleOf(before.version)).json();
    expect(after.skipped.filter((s: { artefact: string }) => s.artefact === 'nftables')).toEqual([]);
    // 175.45.176.0/22 is North Korea's in the shipped database.
    expect(after.artefacts.nftables).toMatch(/175\.45\.176\.0/);
    const simulated = await call('POST', '/policy/simulate/acme', owner, {
      request: { destination: '175.45.176.10' },
    });
    expect(simulated.json().decision).toBe('block');
  });
});
