import { DEVICE_OPTIONS_LIMIT } from '@palisade/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { devices } from './enrolment.tables';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const url = (tenant = 'acme', q?: string) =>
  `/api/enrolment/${tenant}/devices/options${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`;

let owner: string;
let aliceId: string;

/** Enrolled devices, made directly in the database (enrolment is not what these tests are about). */
async function addDevices(tenantId: string, names: string[], userId: string | null) {
  await f.database.db.insert(devices).values(
    names.map((name) => ({
      tenantId,
      name,
      os: 'linux' as const,
      userId,
      enrolledVia: 'rmm' as const,
      tokenHash: `hash-${tenantId}-${name}`,
    })),
  );
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const alice = await f.app.inject({
    method: 'POST',
    url: '/api/subscriber/user/acme',
    headers: auth(owner),
    payload: { username: 'alice.options@acme.test', firstname: 'Alice', lastname: 'Options' },
  });
  aliceId = alice.json().id;
  await addDevices(f.acme.id, ['Build server', 'alice-laptop', 'Kiosk 100%'], aliceId);
  await addDevices(f.acme.id, ['Lobby screen'], null);
  await addDevices(f.globex.id, ['Globex laptop'], null);
});

describe('GET enrolment/{tenant}/devices/options', () => {
  it('covers 401, 403 without devices:view, another tenant and 400', async () => {
    expect((await f.app.inject({ url: url() })).statusCode).toBe(401);
    const billing = await f.signIn('billing@acme.test');
    expect((await f.app.inject({ url: url(), headers: auth(billing) })).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await f.app.inject({ url: url(), headers: auth(globex) })).statusCode).toBe(404);
    const long = await f.app.inject({ url: url('acme', 'x'.repeat(201)), headers: auth(owner) });
    expect(long.statusCode).toBe(400);
    expect(long.json().details).toEqual([{ path: 'query.q', message: 'validation.tooLong' }]);
  });

  it("lists the tenant's devices by name with their owners, and searches name and username", async () => {
    const all = await f.app.inject({ url: url(), headers: auth(owner) });
    expect(all.statusCode).toBe(200);
    expect(all.json().map((d: { name: string }) => d.name)).toEqual([
      'alice-laptop',
      'Build server',
      'Kiosk 100%',
      'Lobby screen',
    ]);
    expect(all.json()[0]).toEqual({
      id: expect.any(String),
      name: 'alice-laptop',
      os: 'linux',
      username: 'alice.options@acme.test',
    });

    const names = async (q: string) =>
      (await f.app.inject({ url: url('acme', q), headers: auth(owner) }))
        .json()
        .map((d: { name: string }) => d.name);
    expect(await names('LAPTOP')).toEqual(['alice-laptop']);
    // The owner's username finds every device of that user.
    expect(await names('alice.options')).toEqual(['alice-laptop', 'Build server', 'Kiosk 100%']);
    // `%` is a literal character.
    expect(await names('%')).toEqual(['Kiosk 100%']);
    expect(await names('globex')).toEqual([]);
  });

  it(`offers at most ${DEVICE_OPTIONS_LIMIT} devices`, async () => {
    await addDevices(
      f.acme.id,
      Array.from({ length: DEVICE_OPTIONS_LIMIT + 5 }, (_, i) => `Fleet ${String(i).padStart(2, '0')}`),
      null,
    );
    const res = await f.app.inject({ url: url('acme', 'fleet'), headers: auth(owner) });
    expect(res.json()).toHaveLength(DEVICE_OPTIONS_LIMIT);
    expect(res.json()[0].name).toBe('Fleet 00');
  });
});

describe('GET enrolment/{tenant}/devices/{id}', () => {
  const deviceUrl = (id: string, tenant = 'acme') => `/api/enrolment/${tenant}/devices/${id}`;
  const idOf = async (tenant: string, name: string) => {
    const token = await f.signIn(tenant === 'acme' ? 'admin@acme.test' : 'admin@globex.test');
    const res = await f.app.inject({ url: `${url(tenant, name)}`, headers: auth(token) });
    return res.json()[0].id as string;
  };

  it('covers 401, 403 without devices:view, another tenant, a malformed id and an unknown one', async () => {
    const id = await idOf('acme', 'alice-laptop');
    expect((await f.app.inject({ url: deviceUrl(id) })).statusCode).toBe(401);
    const billing = await f.signIn('billing@acme.test');
    expect((await f.app.inject({ url: deviceUrl(id), headers: auth(billing) })).statusCode).toBe(403);
    // Globex's administrator can neither open acme's path nor reach acme's device through globex's.
    const globex = await f.signIn('admin@globex.test');
    expect((await f.app.inject({ url: deviceUrl(id), headers: auth(globex) })).statusCode).toBe(404);
    expect((await f.app.inject({ url: deviceUrl(id, 'globex'), headers: auth(globex) })).statusCode).toBe(
      404,
    );
    const bad = await f.app.inject({ url: deviceUrl('not-a-uuid'), headers: auth(owner) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'params.id', message: 'validation.uuid' }]);
    const unknown = await f.app.inject({
      url: deviceUrl('00000000-0000-4000-8000-000000000000'),
      headers: auth(owner),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('names the device and its owner', async () => {
    const id = await idOf('acme', 'alice-laptop');
    const res = await f.app.inject({ url: deviceUrl(id), headers: auth(owner) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id,
      name: 'alice-laptop',
      os: 'linux',
      username: 'alice.options@acme.test',
    });
    const lobby = await idOf('acme', 'Lobby screen');
    expect((await f.app.inject({ url: deviceUrl(lobby), headers: auth(owner) })).json()).toMatchObject({
      name: 'Lobby screen',
      username: null,
    });
  });
});
