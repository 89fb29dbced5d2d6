import { generateKeyPair } from '@palisade/gateway-config';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { policyApi, rule } from '../policies/policies.test-kit';
import { gateways } from './gateways.tables';

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

/** A WireGuard public key as a gateway makes it. */
const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let auditor: string;
let billing: string;
let globex: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function createGateway(name: string, kind = 'cgw', region = 'eu-central') {
  const res = await call('POST', '/cybernodes/acme', owner, { name, kind, region });
  expect(res.statusCode).toBe(201);
  return res.json() as { cybernode: { id: string }; enrolmentToken: { token: string } };
}

async function enrol(token: string, publicKey = wireguardPublicKey()) {
  return f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: { token, publicKey, hostname: 'edge-1.acme.test', version: '1.0.0' },
  });
}

const bundle = (credential: string, have?: string, wait = 0) =>
  f.app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: { ...bearer(credential), ...(have ? { 'if-none-match': `"${have}"` } : {}) },
  });

const METRICS = {
  cpuPercent: 12.5,
  memoryPercent: 40,
  throughputBps: 1000,
  uptimeSeconds: 60,
  activePeers: 0,
  connectedUsers: 0,
};

describe('cybernodes/{tenant}: the administrators', () => {
  it('covers 401, 403, 404 for another tenant, and 400 with details, changing nothing', async () => {
    const body = { name: 'Edge', kind: 'cgw', region: 'eu-central' };
    expect((await call('POST', '/cybernodes/acme', undefined, body)).statusCode).toBe(401);
    expect((await call('POST', '/cybernodes/acme', auditor, body)).statusCode).toBe(403);
    expect((await call('GET', '/cybernodes/acme', billing)).statusCode).toBe(403);
    expect((await call('POST', '/cybernodes/acme', globex, body)).statusCode).toBe(404);
    const bad = await call('POST', '/cybernodes/acme', owner, { name: '', kind: 'router', region: '' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.kind', 'body.name', 'body.region']);
    const { cybernode } = await createGateway('Guarded');
    expect((await call('GET', `/cybernodes/globex/${cybernode.id}`, globex)).statusCode).toBe(404);
    expect(
      (await call('PUT', `/cybernodes/acme/${cybernode.id}`, auditor, { name: 'X', region: 'y' })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/cybernodes/acme/${cybernode.id}`, globex)).statusCode).toBe(404);
    const list = await call('GET', '/cybernodes/acme?q=guarded', auditor);
    expect(list.json().items.map((g: { name: string }) => g.name)).toEqual(['Guarded']);
  });

  it('adds a gateway pending its enrolment, renames it, asks for an upgrade and retires it, each in the log', async () => {
    const { cybernode, enrolmentToken } = await createGateway('Branch Berlin');
    expect(cybernode).toMatchObject({
      status: 'pending',
      kind: 'cgw',
      region: 'eu-central',
      publicKey: null,
    });
    expect(enrolmentToken.token).toMatch(/^gwe_/);

    const renamed = await call('PUT', `/cybernodes/acme/${cybernode.id}`, owner, {
      name: 'Branch Berlin 2',
      region: 'eu-west',
    });
    expect(renamed.json()).toMatchObject({ name: 'Branch Berlin 2', region: 'eu-west' });
    const upgrade = await call('POST', `/cybernodes/acme/${cybernode.id}/upgrade`, owner, {
      targetVersion: '2.0.0',
    });
    expect(upgrade.json().upgrade).toMatchObject({ targetVersion: '2.0.0', state: 'pending' });
    const retired = await call('DELETE', `/cybernodes/acme/${cybernode.id}`, owner);
    expect(retired.json().status).toBe('retired');
    // A retired gateway neither enrols nor changes.
    expect((await enrol(enrolmentToken.token)).statusCode).toBe(404);
    expect(
      (await call('PUT', `/cybernodes/acme/${cybernode.id}`, owner, { name: 'Again', region: 'x' }))
        .statusCode,
    ).toBe(409);

    const actions = (
      await f.database.db.select().from(adminEvents).where(eq(adminEvents.objectId, cybernode.id))
    ).map((event) => event.action);
    expect(actions.sort()).toEqual(['gateway.create', 'gateway.retire', 'gateway.update', 'gateway.upgrade']);
  });
});

describe("every administrators' route of cybernodes/{tenant}", () => {
  it('answers 401 without a session, 403 to a role without the permission, 404 for another tenant and 400 with details', async () => {
    const { cybernode } = await createGateway('Every route');
    const id = cybernode.id;
    const routes: {
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: string;
      body?: unknown;
      bad?: { body?: unknown; url?: string; path: string };
      refused: string;
    }[] = [
      {
        method: 'GET',
        url: '/cybernodes/acme',
        bad: { url: '/cybernodes/acme?limit=0', path: 'query.limit' },
        refused: billing,
      },
      {
        method: 'GET',
        url: `/cybernodes/acme/${id}`,
        bad: { url: '/cybernodes/acme/nope', path: 'params.id' },
        refused: billing,
      },
      {
        method: 'PUT',
        url: `/cybernodes/acme/${id}`,
        body: { name: 'Renamed', region: 'eu-west' },
        bad: { body: { name: '', region: 'eu-west' }, path: 'body.name' },
        refused: auditor,
      },
      {
        method: 'POST',
        url: `/cybernodes/acme/${id}/upgrade`,
        body: { targetVersion: '1.2.3' },
        bad: { body: { targetVersion: 'latest' }, path: 'body.targetVersion' },
        refused: auditor,
      },
      {
        method: 'POST',
        url: `/cybernodes/acme/${id}/rotate`,
        bad: { url: '/cybernodes/acme/nope/rotate', path: 'params.id' },
        refused: auditor,
      },
      {
        method: 'DELETE',
        url: `/cybernodes/acme/${id}`,
        bad: { url: '/cybernodes/acme/nope', path: 'params.id' },
        refused: auditor,
      },
    ];
    for (const r of routes) {
      const label = `${r.method} ${r.url}`;
      expect((await call(r.method, r.url, undefined, r.body)).statusCode, label).toBe(401);
      expect((await call(r.method, r.url, r.refused, r.body)).statusCode, label).toBe(403);
      expect((await call(r.method, r.url.replace('/acme', '/globex'), owner, r.body)).statusCode, label).toBe(
        404,
      );
      // A gateway of acme is not found through globex's own administrator either.
      if (r.url.includes(id)) {
        expect(
          (await call(r.method, r.url.replace('/acme', '/globex'), globex, r.body)).statusCode,
          label,
        ).toBe(404);
      }
      if (r.bad) {
        const res = await call(r.method, r.bad.url ?? r.url, owner, r.bad.body ?? r.body);
        expect(res.statusCode, label).toBe(400);
        expect(
          res.json().details.map((d: { path: string }) => d.path),
          label,
        ).toContain(r.bad.path);
      }
    }
    // None of the refused calls changed anything: its only event is its creation.
    const events = await f.database.db.select().from(adminEvents).where(eq(adminEvents.objectId, id));
    expect(events.map((event) => event.action)).toEqual(['gateway.create']);
  });
});

describe('the gateway protocol', () => {
  it('enrols once with the token and a WireGuard key; the credential works until rotated', async () => {
    const { cybernode, enrolmentToken } = await createGateway('Enrolling');
    const badKey = await enrol(enrolmentToken.token, 'not-a-key');
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().details).toEqual([{ path: 'body.publicKey', message: 'validation.wireguardKey' }]);
    expect((await enrol('gwe_unknown')).statusCode).toBe(404);

    const publicKey = wireguardPublicKey();
    const enrolled = await enrol(enrolmentToken.token, publicKey);
    expect(enrolled.statusCode).toBe(201);
    const { credential, wireguard, gatewayId } = enrolled.json();
    expect(gatewayId).toBe(cybernode.id);
    expect(credential).toMatch(/^gw_/);
    expect(wireguard).toMatchObject({
      address: expect.stringMatching(/^100\.100\.\d+\.1\/24$/),
      listenPort: 51820,
    });
    // The token is used up.
    expect((await enrol(enrolmentToken.token)).statusCode).toBe(404);

    const shown = await call('GET', `/cybernodes/acme/${cybernode.id}`, owner);
    expect(shown.json()).toMatchObject({ status: 'online', publicKey, hostname: 'edge-1.acme.test' });
    expect((await bundle(credential)).statusCode).toBe(200);

    const rotated = await call('POST', `/cybernodes/acme/${cybernode.id}/rotate`, owner);
    expect(rotated.statusCode).toBe(200);
    expect((await bundle(credential)).statusCode).toBe(401);
    const again = await enrol(rotated.json().enrolmentToken.token, publicKey);
    expect(again.statusCode).toBe(201);
    expect((await bundle(again.json().credential)).statusCode).toBe(200);
  });

  it('enrols exactly one gateway when the same token arrives 15 times at once', async () => {
    const { cybernode, enrolmentToken } = await createGateway('Raced');
    const answers = await Promise.all(Array.from({ length: 15 }, () => enrol(enrolmentToken.token)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, ...Array(14).fill(404)]);
    for (const lost of answers.filter((a) => a.statusCode !== 201)) {
      expect(lost.json()).toMatchObject({ code: 'not_found' });
    }
    const winner = answers.find((a) => a.statusCode === 201)?.json();
    expect(winner.gatewayId).toBe(cybernode.id);
    // One enrolment in the log, and the winner's credential is the one that works.
    const enrolments = (
      await f.database.db.select().from(adminEvents).where(eq(adminEvents.objectId, cybernode.id))
    ).filter((event) => event.action === 'gateway.enrol');
    expect(enrolments).toHaveLength(1);
    expect((await bundle(winner.credential)).statusCode).toBe(200);
  });

  it('answers 401 to a missing, made-up or session credential on every gateway route', async () => {
    for (const [method, url] of [
      ['GET', '/api/gw/bundle'],
      ['POST', '/api/gw/heartbeat'],
      ['POST', '/api/gw/events'],
    ] as const) {
      expect((await f.app.inject({ method, url })).statusCode, url).toBe(401);
      expect((await f.app.inject({ method, url, headers: bearer('gw_made_up') })).statusCode, url).toBe(401);
      expect((await f.app.inject({ method, url, headers: auth(owner) })).statusCode, url).toBe(401);
    }
  });

  it('serves the bundle with its ETag, 304 while unchanged, and a waiting gateway gets the policy change', async () => {
    const { enrolmentToken } = await createGateway('Long poll');
    const { credential } = (await enrol(enrolmentToken.token)).json();
    const first = await bundle(credential);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(first.headers.etag).toBe(`"${body.version}"`);
    expect(body.artefacts.nftables).toContain('table inet palisade');
    expect(body.artefacts.rpz).toContain('SOA');
    expect(body.artefacts.wireguard).toContain('[Interface]');
    expect((await bundle(credential, body.version, 0)).statusCode).toBe(304);

    const waiting = bundle(credential, body.version, 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await policies.create(owner, {
      type: 'other',
      name: 'Block gw.example',
      rules: [rule({ name: 'Block gw', url: 'gw-block.example' })],
    });
    // The held request answers with the new version (how fast is measured by npm run bench).
    const changed = await waiting;
    expect(changed.statusCode).toBe(200);
    expect(changed.json().version).not.toBe(body.version);
    expect(changed.json().artefacts.rpz).toContain('gw-block.example');
  });

  it('takes heartbeats: online, the enforced version, load', async () => {
    const { cybernode, enrolmentToken } = await createGateway('Beating');
    const { credential } = (await enrol(enrolmentToken.token)).json();
    const version = (await bundle(credential)).json().version;
    const beat = await f.app.inject({
      method: 'POST',
      url: '/api/gw/heartbeat',
      headers: bearer(credential),
      payload: { version: '1.0.1', enforcedVersion: version, metrics: METRICS, peers: [] },
    });
    expect(beat.statusCode).toBe(200);
    expect(beat.json()).toEqual({ currentVersion: version, upgrade: null });
    const shown = (await call('GET', `/cybernodes/acme/${cybernode.id}`, owner)).json();
    expect(shown).toMatchObject({
      status: 'online',
      version: '1.0.1',
      enforcedVersion: version,
      isDrifting: false,
    });
    expect(shown.metrics).toEqual(METRICS);
    // What its decision queue dropped during an outage is shown with the load.
    const lossy = await f.app.inject({
      method: 'POST',
      url: '/api/gw/heartbeat',
      headers: bearer(credential),
      payload: {
        version: '1.0.1',
        enforcedVersion: version,
        metrics: { ...METRICS, decisionEventsDropped: 7 },
        peers: [],
      },
    });
    expect(lossy.statusCode).toBe(200);
    expect((await call('GET', `/cybernodes/acme/${cybernode.id}`, owner)).json().metrics).toEqual({
      ...METRICS,
      decisionEventsDropped: 7,
    });

    const badBeat = await f.app.inject({
      method: 'POST',
      url: '/api/gw/heartbeat',
      headers: bearer(credential),
      payload: { version: 'new', enforcedVersion: null, metrics: { ...METRICS, cpuPercent: 900 }, peers: [] },
    });
    expect(badBeat.statusCode).toBe(400);
  });
});

describe('a waiting bundle long-poll', () => {
  /** A gateway of acme, enrolled, with the version it holds. */
  async function waitingGateway(name: string) {
    const { cybernode, enrolmentToken } = await createGateway(name);
    const { credential } = (await enrol(enrolmentToken.token)).json();
    const version = (await bundle(credential)).json().version as string;
    return { id: cybernode.id, credential, version };
  }
  /** The answer to `poll` and how long after `from` it came. */
  const timed = async (poll: ReturnType<typeof bundle>, from: () => number) => {
    const answer = await poll;
    return { answer, ms: Date.now() - from() };
  };

  it('ends at once with 401 when its credential is rotated or its gateway retired', async () => {
    for (const action of ['rotate', 'retire'] as const) {
      const gw = await waitingGateway(`Revoked by ${action}`);
      let revokedAt = 0;
      const waiting = timed(bundle(gw.credential, gw.version, 10), () => revokedAt);
      await new Promise((resolve) => setTimeout(resolve, 300));
      revokedAt = Date.now();
      const revoked =
        action === 'rotate'
          ? await call('POST', `/cybernodes/acme/${gw.id}/rotate`, owner)
          : await call('DELETE', `/cybernodes/acme/${gw.id}`, owner);
      expect(revoked.statusCode).toBe(200);
      const { answer, ms } = await waiting;
      expect(answer.statusCode, action).toBe(401);
      expect(answer.json().code).toBe('unauthenticated');
      expect(ms, action).toBeLessThan(1500);
    }
  });

  it('checks its credential again before it answers: a credential gone meanwhile gets 401, not the bundle', async () => {
    const gw = await waitingGateway('Quietly revoked');
    const waiting = bundle(gw.credential, gw.version, 10);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Revoked behind the server's back (nothing announced), then a change wakes the long-poll.
    await f.database.db.update(gateways).set({ credentialHash: null }).where(eq(gateways.id, gw.id));
    await policies.create(owner, {
      type: 'other',
      name: 'Wakes the revoked',
      rules: [rule({ name: 'Block revoked', url: 'revoked-block.example' })],
    });
    const answer = await waiting;
    expect(answer.statusCode).toBe(401);
    expect(answer.body).not.toContain('revoked-block.example');
  });

  it('ends at once with 403 when its tenant is suspended; the gateway keeps reporting, and gets bundles again once it is resumed', async () => {
    const gw = await waitingGateway('Suspended tenant');
    const partner = await f.signIn('partner@northwind.test');
    const status = (value: 'suspended' | 'active') =>
      f.app.inject({
        method: 'PUT',
        url: `/api/partner/northwind/tenants/${f.acme.id}/status`,
        headers: auth(partner),
        payload: { status: value },
      });
    let suspendedAt = 0;
    const waiting = timed(bundle(gw.credential, gw.version, 10), () => suspendedAt);
    await new Promise((resolve) => setTimeout(resolve, 300));
    suspendedAt = Date.now();
    try {
      expect((await status('suspended')).statusCode).toBe(200);
      const { answer, ms } = await waiting;
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'tenant_suspended', errcode: 21 });
      expect(ms).toBeLessThan(1500);
      // Asking again while suspended is refused the same way; its heartbeats are still taken.
      expect((await bundle(gw.credential, gw.version, 5)).statusCode).toBe(403);
      const beat = await f.app.inject({
        method: 'POST',
        url: '/api/gw/heartbeat',
        headers: bearer(gw.credential),
        payload: { version: '1.0.0', enforcedVersion: gw.version, metrics: METRICS, peers: [] },
      });
      expect(beat.statusCode).toBe(200);
    } finally {
      expect((await status('active')).statusCode).toBe(200);
    }
    expect((await bundle(gw.credential, gw.version, 0)).statusCode).toBe(304);
  });

  it('holds no database connection while it waits: none is asked for until a change wakes it', async () => {
    const gateways = await Promise.all(Array.from({ length: 20 }, (_, i) => waitingGateway(`Idle ${i}`)));
    const asked = [
      vi.spyOn(f.database, 'tenantTx'),
      vi.spyOn(f.database.db, 'transaction'),
      vi.spyOn(f.database.db, 'select'),
      vi.spyOn(f.database.db, 'execute'),
    ];
    const answered: number[] = [];
    const polls = gateways.map((gw) =>
      bundle(gw.credential, gw.version, 20).then((answer) => {
        answered.push(answer.statusCode);
        return answer;
      }),
    );
    try {
      // Each long-poll reads once, then waits.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = asked.map((spy) => spy.mock.calls.length);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      // Two seconds of 20 waiting long-polls: not one transaction or query.
      expect(asked.map((spy, i) => spy.mock.calls.length - before[i])).toEqual([0, 0, 0, 0]);
    } finally {
      for (const spy of asked) spy.mockRestore();
    }
    // An administrator's page and save go through while they wait, and do not answer them.
    expect((await call('GET', '/subscriber/user/acme', owner)).statusCode).toBe(200);
    expect(answered).toEqual([]);
    await policies.create(owner, {
      type: 'other',
      name: 'Wakes the idle',
      rules: [rule({ name: 'Block idle', url: 'idle-block.example' })],
    });
    const answers = await Promise.all(polls);
    expect(answers.map((answer) => answer.statusCode)).toEqual(gateways.map(() => 200));
    expect(answers[0].json().artefacts.rpz).toContain('idle-block.example');
  }, 30_000);
});
