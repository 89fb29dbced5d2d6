import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import {
  auth,
  detailPaths,
  eventsOf,
  expectGuards,
  signInAll,
  type Tokens,
  UNKNOWN_ID,
} from './test-support';

const f = useFixture();
let t: Tokens;

beforeAll(async () => {
  t = await signInAll(f);
});

const URL = '/api/policy/locations/acme';

async function createLocation(body: Record<string, unknown>, token = t.owner, url = URL) {
  return f.app.inject({ method: 'POST', url, headers: auth(token), payload: body });
}

async function listLocations(token = t.owner) {
  return (await f.app.inject({ url: URL, headers: auth(token) })).json() as {
    id: string;
    name: string;
    networks: string[];
    usedBy: number;
  }[];
}

describe('locations API', () => {
  describe('GET policy/locations/{tenant}', () => {
    it('covers 401, 403 (no policies permission), 404 for another tenant', async () => {
      await expectGuards(f, t, { method: 'GET', url: URL, forbidden: 'helpdesk' });
    });

    it('lists by name with how many rules use each, for a view-only role too', async () => {
      await createLocation({ name: 'zz Branch', networks: ['10.20.0.0/16'] });
      await createLocation({ name: 'aa Office', networks: ['10.30.0.0/16'] });
      const list = await listLocations(t.auditor);
      const names = list.map((l) => l.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(list.find((l) => l.name === 'aa Office')).toMatchObject({
        networks: ['10.30.0.0/16'],
        usedBy: 0,
      });
    });
  });

  describe('POST policy/locations/{tenant}', () => {
    it('covers 401, 403 (view-only), 404 for another tenant, without writing', async () => {
      await expectGuards(f, t, {
        method: 'POST',
        url: URL,
        payload: { name: 'Guarded', networks: ['10.0.0.0/8'] },
        forbidden: 'auditor',
      });
      expect((await listLocations()).map((l) => l.name)).not.toContain('Guarded');
    });

    it('rejects bad entries, more than 16 networks and an empty list, with details', async () => {
      const bad = await createLocation({ name: ' ', networks: ['10.0.0.0/33', 'example.com', '10.1.1.1'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual(
        expect.arrayContaining([
          { path: 'body.name', message: 'validation.required' },
          { path: 'body.networks.0', message: 'validation.ipOrCidr' },
          { path: 'body.networks.1', message: 'validation.ipOrCidr' },
        ]),
      );
      const seventeen = Array.from({ length: 17 }, (_, i) => `10.${i}.0.0/16`);
      const tooMany = await createLocation({ name: 'Too many', networks: seventeen });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().details).toEqual([{ path: 'body.networks', message: 'validation.maxLocations' }]);
      const sixteen = await createLocation({ name: 'Sixteen', networks: seventeen.slice(0, 16) });
      expect(sixteen.statusCode).toBe(201);
      const empty = await createLocation({ name: 'Empty', networks: [] });
      expect(empty.json().details).toEqual([{ path: 'body.networks', message: 'validation.required' }]);
      expect((await listLocations()).map((l) => l.name)).not.toContain('Too many');
    });

    it('reports a repeated entry at its index, and an entry inside another with both indexes', async () => {
      const duplicate = await createLocation({
        name: 'Dup',
        networks: ['10.0.0.0/8', '192.0.2.1', '10.0.0.0/8'],
      });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json().details).toEqual([
        { path: 'body.networks.2', message: 'validation.duplicate' },
      ]);

      const overlap = await createLocation({
        name: 'Overlap',
        networks: ['192.0.2.0/24', '10.10.0.0/16', '192.0.2.77', '10.10.5.0/24'],
      });
      expect(overlap.statusCode).toBe(400);
      expect(overlap.json().details).toEqual([
        { path: 'body.networks.0', message: 'validation.overlap' },
        { path: 'body.networks.1', message: 'validation.overlap' },
        { path: 'body.networks.2', message: 'validation.overlap' },
        { path: 'body.networks.3', message: 'validation.overlap' },
      ]);
      // The same address written two ways is an overlap too.
      const sameAddress = await createLocation({
        name: 'Same',
        networks: ['198.51.100.7', '198.51.100.7/32'],
      });
      expect(detailPaths(sameAddress.json())).toEqual(['body.networks.0', 'body.networks.1']);
      // Neighbours are fine.
      const neighbours = await createLocation({
        name: 'Neighbours',
        networks: ['192.0.2.0/25', '192.0.2.128/25'],
      });
      expect(neighbours.statusCode).toBe(201);
    });

    it('creates a trimmed location, logs it, and refuses a name taken ignoring case (409)', async () => {
      const res = await createLocation({
        name: '  HQ Munich ',
        description: ' Main office ',
        networks: [' 203.0.113.8/29 ', '10.50.0.0/16'],
      });
      expect(res.statusCode).toBe(201);
      const location = res.json();
      expect(location).toMatchObject({
        name: 'HQ Munich',
        description: 'Main office',
        networks: ['203.0.113.8/29', '10.50.0.0/16'],
        usedBy: 0,
      });
      const [event] = (await eventsOf(f, 'policy.location.create')).filter((e) => e.objectId === location.id);
      expect(event).toMatchObject({
        objectType: 'location',
        objectName: 'HQ Munich',
        actorName: 'admin@acme.test',
      });
      const taken = await createLocation({ name: 'hq munich', networks: ['10.51.0.0/16'] });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().details).toEqual([{ path: 'body.name', message: 'validation.nameTaken' }]);
      // Another tenant may use the name.
      const globex = await createLocation(
        { name: 'HQ Munich', networks: ['10.0.0.0/8'] },
        t.globexOwner,
        '/api/policy/locations/globex',
      );
      expect(globex.statusCode).toBe(201);
    });
  });

  describe('PUT policy/locations/{tenant}/{id}', () => {
    it('covers 401, 403, 404 (other tenant, unknown id), 400, 409 and updates with before/after', async () => {
      const location = (await createLocation({ name: 'Renamable', networks: ['10.60.0.0/16'] })).json();
      const url = `${URL}/${location.id}`;
      const payload = { name: 'Renamed', networks: ['10.61.0.0/16'] };
      await expectGuards(f, t, { method: 'PUT', url, payload, forbidden: 'auditor' });
      const globexLocation = (
        await createLocation(
          { name: 'Globex only', networks: ['10.0.0.0/8'] },
          t.globexOwner,
          '/api/policy/locations/globex',
        )
      ).json();
      const cross = await f.app.inject({
        method: 'PUT',
        url: `${URL}/${globexLocation.id}`,
        headers: auth(t.owner),
        payload,
      });
      expect(cross.statusCode).toBe(404);
      const unknown = await f.app.inject({
        method: 'PUT',
        url: `${URL}/${UNKNOWN_ID}`,
        headers: auth(t.owner),
        payload,
      });
      expect(unknown.statusCode).toBe(404);
      const badId = await f.app.inject({
        method: 'PUT',
        url: `${URL}/nope`,
        headers: auth(t.owner),
        payload,
      });
      expect(detailPaths(badId.json())).toEqual(['params.id']);
      const bad = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(t.owner),
        payload: { name: 'Renamed', networks: ['10.0.0.0/8', '10.61.0.0/16'] },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([
        { path: 'body.networks.0', message: 'validation.overlap' },
        { path: 'body.networks.1', message: 'validation.overlap' },
      ]);
      await createLocation({ name: 'Occupied', networks: ['10.62.0.0/16'] });
      const taken = await f.app.inject({
        method: 'PUT',
        url,
        headers: auth(t.owner),
        payload: { ...payload, name: 'OCCUPIED' },
      });
      expect(taken.statusCode).toBe(409);

      const ok = await f.app.inject({ method: 'PUT', url, headers: auth(t.owner), payload });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ id: location.id, name: 'Renamed', networks: ['10.61.0.0/16'] });
      const [event] = (await eventsOf(f, 'policy.location.update')).filter((e) => e.objectId === location.id);
      expect(event.before).toMatchObject({ name: 'Renamable', networks: ['10.60.0.0/16'] });
      expect(event.after).toMatchObject({ name: 'Renamed', networks: ['10.61.0.0/16'] });
    });
  });

  describe('DELETE policy/locations/{tenant}', () => {
    it('covers 401, 403, 404 and 400', async () => {
      await expectGuards(f, t, {
        method: 'DELETE',
        url: URL,
        payload: { ids: [UNKNOWN_ID] },
        forbidden: 'auditor',
      });
      const bad = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: ['x'] },
      });
      expect(bad.statusCode).toBe(400);
      expect(detailPaths(bad.json())).toEqual(['body.ids.0']);
      const none = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: [] },
      });
      expect(none.json().details).toEqual([{ path: 'body.ids', message: 'validation.required' }]);
    });

    it("removes the location from every rule using it and skips other tenants' ids", async () => {
      const office = (await createLocation({ name: 'Cascade office', networks: ['10.70.0.0/16'] })).json();
      const lab = (await createLocation({ name: 'Cascade lab', networks: ['10.71.0.0/16'] })).json();
      const globexLocation = (
        await createLocation(
          { name: 'Globex keep', networks: ['10.0.0.0/8'] },
          t.globexOwner,
          '/api/policy/locations/globex',
        )
      ).json();
      const policy = await f.app.inject({
        method: 'POST',
        url: '/api/policy/acme',
        headers: auth(t.owner),
        payload: {
          type: 'other',
          name: 'Office rules',
          rules: [
            {
              name: 'Block news from office',
              type: 'dmn',
              action: 'block',
              url: 'example.org',
              locations: [office.id, lab.id],
            },
            {
              name: 'Block games in office',
              type: 'dmn',
              action: 'block',
              url: 'example.net',
              locations: [office.id],
            },
          ],
        },
      });
      expect(policy.statusCode).toBe(201);
      const policyId = policy.json().policy.id;
      expect((await listLocations()).find((l) => l.id === office.id)?.usedBy).toBe(2);

      const res = await f.app.inject({
        method: 'DELETE',
        url: URL,
        headers: auth(t.owner),
        payload: { ids: [office.id, globexLocation.id, UNKNOWN_ID] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ deleted: 1 });
      const rules = (
        await f.app.inject({ url: `/api/policy/acme/${policyId}`, headers: auth(t.owner) })
      ).json().rules;
      // Rules keep their matcher: they lose the condition, they are not deleted.
      expect(rules.map((r: { name: string; locations: string[] }) => [r.name, r.locations])).toEqual([
        ['Block news from office', [lab.id]],
        ['Block games in office', []],
      ]);
      const globexList = (
        await f.app.inject({ url: '/api/policy/locations/globex', headers: auth(t.globexOwner) })
      ).json();
      expect(globexList.map((l: { id: string }) => l.id)).toContain(globexLocation.id);
      const [event] = (await eventsOf(f, 'policy.location.delete')).filter((e) => e.objectId === office.id);
      expect(event.before).toMatchObject({ name: 'Cascade office', usedBy: 2 });
    });
  });
});
