import { gunzipSync } from 'node:zlib';
import { generateKeyPair } from '@palisade/gateway-config';
import {
  applyDelta,
  BUNDLE_DELTA_IM,
  type BundleDelta,
  bundleFromParts,
  bundleParts,
} from '@palisade/gateway-config/bundle-delta';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Instance, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { policyApi, rule } from '../policies/policies.test-kit';
import { createPolicyCache, loadEngineInput } from '../policy-core/policy-core.service';
import { asStoredJson } from './gateways.service';

/**
 * One save, many gateways: the long-polls it wakes are read together, the tenant's part of a bundle and of a
 * delta is made once and kept by version, a compiled bundle is served without reading it back. What each gateway
 * gets stays its own, exact, and never an older version's.
 */
const f = useFixture();
const policies = policyApi(f);
let owner: string;

const enrolGateway = async (name: string, kind: 'cybernode' | 'cgw') => {
  const created = await policies.call('POST', '/api/cybernodes/acme', owner, {
    name,
    kind,
    region: 'Berlin',
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: `${name.toLowerCase()}.acme.test`,
      version: '1.0.0',
    },
  });
  return { id: created.json().cybernode.id as string, credential: enrolled.json().credential as string };
};

const fetchBundle = (
  credential: string,
  { have, wait = 0, app = f.app }: { have?: string; wait?: number; app?: typeof f.app } = {},
) =>
  app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: {
      authorization: `Bearer ${credential}`,
      'accept-encoding': 'gzip',
      ...(have ? { 'if-none-match': `"${have}"`, 'a-im': BUNDLE_DELTA_IM } : {}),
    },
  });

type Answer = Awaited<ReturnType<typeof fetchBundle>>;
const bodyOf = (answer: Answer) =>
  answer.headers['content-encoding'] === 'gzip'
    ? gunzipSync(answer.rawPayload).toString('utf8')
    : answer.rawPayload.toString('utf8');

/** What a gateway holding `held` makes of an answer: the delta applied (digest checked), or the full bundle. */
function applied(held: Record<string, unknown>, answer: Answer) {
  if (answer.statusCode === 226) {
    return bundleFromParts(applyDelta(bundleParts(held), JSON.parse(bodyOf(answer)) as BundleDelta));
  }
  expect(answer.statusCode, answer.body).toBe(200);
  return JSON.parse(bodyOf(answer)) as Record<string, unknown>;
}

const full = async (credential: string, app = f.app) => {
  const answer = await fetchBundle(credential, { app });
  expect(answer.statusCode).toBe(200);
  return { text: bodyOf(answer), bundle: JSON.parse(bodyOf(answer)) as Record<string, unknown> };
};

const saveBlock = (name: string) =>
  policies.create(owner, { type: 'other', name, rules: [rule({ name, url: `${name}.example` })] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
});

describe('one save, many waiting gateways', () => {
  it('answers every waiting gateway with its own bundle as an exact delta, and ends a retired one with 401', async () => {
    const edge = await enrolGateway('Fanout-edge', 'cybernode');
    const site = await enrolGateway('Fanout-site', 'cgw');
    const gone = await enrolGateway('Fanout-gone', 'cgw');
    const held = new Map<string, Record<string, unknown>>();
    for (const gw of [edge, site, gone]) held.set(gw.id, (await full(gw.credential)).bundle);
    const waiting = [edge, site, gone].map((gw) =>
      fetchBundle(gw.credential, { have: held.get(gw.id)?.version as string, wait: 10 }),
    );
    await settle();
    expect((await policies.call('DELETE', `/api/cybernodes/acme/${gone.id}`, owner)).statusCode).toBe(200);
    await saveBlock('fanout-one');
    const [toEdge, toSite, toGone] = await Promise.all(waiting);
    expect(toGone.statusCode).toBe(401);
    expect(toEdge.statusCode).toBe(226);
    expect(toSite.statusCode).toBe(226);
    const edgeNow = await full(edge.credential);
    const siteNow = await full(site.credential);
    expect(applied(held.get(edge.id) ?? {}, toEdge)).toEqual(edgeNow.bundle);
    expect(applied(held.get(site.id) ?? {}, toSite)).toEqual(siteNow.bundle);
    expect(toEdge.headers.etag).toBe(`"${edgeNow.bundle.version}"`);
    // The same tenant version, each gateway's own part: its tunnel, and the site's ZTNA firewall.
    const [edgeVersion, siteVersion] = [edgeNow.bundle.version as string, siteNow.bundle.version as string];
    expect(edgeVersion.split('.')[0]).toBe(siteVersion.split('.')[0]);
    expect(edgeVersion).not.toBe(siteVersion);
    const artefactsOf = (bundle: Record<string, unknown>) => bundle.artefacts as Record<string, unknown>;
    expect(artefactsOf(edgeNow.bundle).wireguard).not.toBe(artefactsOf(siteNow.bundle).wireguard);
    expect(artefactsOf(edgeNow.bundle).ztna).toBeUndefined();
    expect(artefactsOf(siteNow.bundle).ztna).toEqual(expect.any(String));
    expect(artefactsOf(siteNow.bundle).rpz).toContain('fanout-one.example');
  });

  it('never serves an older version from its caches: deltas from any version held make the newest exactly', async () => {
    const gw = await enrolGateway('Fanout-late', 'cgw');
    const v0 = (await full(gw.credential)).bundle;
    await saveBlock('fanout-two');
    const v1 = (await full(gw.credential)).bundle;
    expect(applied(v0, await fetchBundle(gw.credential, { have: v0.version as string }))).toEqual(v1);
    const second = await saveBlock('fanout-three');
    const v2 = (await full(gw.credential)).bundle;
    expect((v2.artefacts as { rpz: string }).rpz).toContain('fanout-three.example');
    // From the version before and the one before that (a gateway that missed a save).
    expect(applied(v1, await fetchBundle(gw.credential, { have: v1.version as string }))).toEqual(v2);
    expect(applied(v0, await fetchBundle(gw.credential, { have: v0.version as string }))).toEqual(v2);

    // Back to v1's content: the same tenant version, stored again as the current one (a new creation time).
    const removed = await policies.call('DELETE', '/api/policy/acme', owner, { ids: [second] });
    expect(removed.json()).toEqual({ deleted: 1 });
    const again = await full(gw.credential);
    expect(again.bundle.version).toBe(v1.version);
    const current = (await policies.call('GET', '/api/cybernodes/acme/bundles', owner))
      .json()
      .items.find((item: { isCurrent: boolean }) => item.isCurrent);
    expect(current.version).toBe((v1.version as string).split('.')[0]);
    // What is served is the bundle as it is now, not the one cached for that version before.
    expect(again.bundle.createdAt).toBe(current.createdAt);
    expect(again.bundle.createdAt).not.toBe(v1.createdAt);
    expect(applied(v2, await fetchBundle(gw.credential, { have: v2.version as string }))).toEqual(
      again.bundle,
    );
    expect(applied(v0, await fetchBundle(gw.credential, { have: v0.version as string }))).toEqual(
      again.bundle,
    );
    // A gateway holding v1 holds what it enforces now.
    expect((await fetchBundle(gw.credential, { have: v1.version as string })).statusCode).toBe(304);
  });
});

describe('a bundle served as compiled, not read back', () => {
  let other: Instance;
  beforeAll(async () => {
    other = await f.startInstance();
  });

  it('is byte for byte what an instance reading it from the database serves', async () => {
    const gw = await enrolGateway('Fanout-twin', 'cgw');
    await saveBlock('fanout-twin');
    // This instance compiles and stores it; the other reads it.
    const compiled = await full(gw.credential);
    const read = await full(gw.credential, other.app);
    expect(read.bundle.version).toBe(compiled.bundle.version);
    expect(read.text).toBe(compiled.text);
  });

  it('keeps jsonb’s order of keys, and what JSON keeps', async () => {
    const value = {
      zz: 1,
      a: [undefined, () => 1, Number.NaN, { ba: 1, b: 2 }],
      é: 'two bytes',
      ab: undefined,
      10: 'x',
      at: new Date(0),
      aé: { ü: 1, ab: 2, abc: 3 },
      ['__proto__']: { c: 3 },
    };
    const stored = asStoredJson(value);
    expect(JSON.stringify(stored)).toBe(
      '{"10":"x","a":[null,null,null,{"b":2,"ba":1}],"at":"1970-01-01T00:00:00.000Z","zz":1,"é":"two bytes",' +
        '"aé":{"ab":2,"ü":1,"abc":3},"__proto__":{"c":3}}',
    );
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    // As the database gives it back.
    const [row] = await queryRows<{ value: unknown }>(
      f.database.db,
      sql`select ${JSON.stringify(value)}::jsonb as value`,
    );
    expect(JSON.stringify(row.value)).toBe(JSON.stringify(stored));
  });

  it('builds the version a save committed from the state it committed, as reading it would', async () => {
    const cache = createPolicyCache(f.database);
    try {
      await saveBlock('fanout-state');
      const live = await cache.compiledFor(f.acme.id);
      const read = await f.database.tenantTx(f.acme.id, (tx) => loadEngineInput(tx, f.acme.id));
      expect(live.input).toEqual(read);
    } finally {
      cache.close();
    }
  });
});
