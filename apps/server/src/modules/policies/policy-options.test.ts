import { compile } from '@palisade/policy-engine';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { loadTenantPolicies } from './policies.engine-source';
import { policyApi, rule } from './policies.test-kit';

/** Issue 23: a policy's options — show the block page, and a full tunnel for the devices it applies to. */

const f = useFixture();
const api = policyApi(f);

let owner: string;
let auditor: string;
let globexOwner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
});

const body = (over: Record<string, unknown> = {}) => ({
  type: 'other',
  name: `Options ${Math.random().toString(36).slice(2, 8)}`,
  rules: [rule()],
  ...over,
});

describe('policy options blockPage and fullTunnel', () => {
  it('default to the block page on and a split tunnel', async () => {
    const id = await api.create(owner, body());
    expect(await api.get(owner, id)).toMatchObject({ blockPage: true, fullTunnel: false });
    const lists = (await api.call('GET', '/api/policy/acme', owner)).json();
    expect(lists.user.find((p: { id: string }) => p.id === id)).toMatchObject({
      blockPage: true,
      fullTunnel: false,
    });
  });

  it('are saved on create and update, audited with before and after, and kept by a copy', async () => {
    const id = await api.create(owner, body({ name: 'Remote staff', type: 'route', fullTunnel: true }));
    expect(await api.get(owner, id)).toMatchObject({ blockPage: true, fullTunnel: true });
    const res = await api.call('PUT', `/api/policy/acme/${id}`, owner, {
      type: 'route',
      name: 'Remote staff',
      blockPage: false,
      fullTunnel: true,
      rules: [rule()],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().policy).toMatchObject({ blockPage: false, fullTunnel: true });
    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.action, 'policy.update'), eq(adminEvents.objectId, id)));
    expect(event.before).toMatchObject({ blockPage: true });
    expect(event.after).toMatchObject({ blockPage: false });
    const copy = await api.call('POST', `/api/policy/acme/${id}/copy`, owner, {});
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json().policy).toMatchObject({ blockPage: false, fullTunnel: true });
  });

  it('reach the engine: the policy source and the compiled policy carry them', async () => {
    const id = await api.create(owner, body({ blockPage: false, fullTunnel: true }));
    const engine = await f.database.tenantTx(f.acme.id, (tx) => loadTenantPolicies(tx, f.acme.id));
    expect(engine.find((p) => p.id === id)).toMatchObject({ blockPage: false, fullTunnel: true });
    const compiled = compile({
      policies: engine,
      objects: { apps: [], categories: [], feeds: [], locations: [] },
    });
    expect(compiled.policies.find((p) => p.id === id)).toMatchObject({ blockPage: false, fullTunnel: true });
  });

  it('refuses options that are not booleans with their fields', async () => {
    const res = await api.call('POST', '/api/policy/acme', owner, body({ blockPage: 'yes', fullTunnel: 1 }));
    expect(res.statusCode).toBe(400);
    const paths = res.json().details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.blockPage', 'body.fullTunnel']));
  });

  it("answers 401 without a session, 403 to a read-only role and 404 for another tenant's policy", async () => {
    const id = await api.create(owner, body());
    const update = { type: 'other', name: 'Changed', fullTunnel: true, rules: [rule()] };
    expect((await api.call('PUT', `/api/policy/acme/${id}`, undefined, update)).statusCode).toBe(401);
    expect((await api.call('PUT', `/api/policy/acme/${id}`, auditor, update)).statusCode).toBe(403);
    const globex = await api.create(globexOwner, body(), 'globex');
    expect((await api.call('PUT', `/api/policy/acme/${globex}`, owner, update)).statusCode).toBe(404);
    expect(await api.get(globexOwner, globex, 'globex')).toMatchObject({ fullTunnel: false });
    expect(await api.get(owner, id)).toMatchObject({ fullTunnel: false });
  });
});
