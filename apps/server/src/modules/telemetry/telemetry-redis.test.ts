import { generateKeyPair } from '@palisade/gateway-config';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { writeBatch } from './telemetry.service';
import {
  deadLetterCount,
  startStreamConsumer,
  streamKeys,
  TELEMETRY_GROUP,
  TELEMETRY_STREAM,
} from './telemetry.stream';

// Ingest through a Redis stream (REDIS_URL). Run by scripts/test.sh's Redis pass with TEST_REDIS_URL; the other
// passes report it skipped. A database of its own (7), emptied first, so no other run's batches are in it.
const testRedisUrl = process.env.TEST_REDIS_URL ?? null;
const url = testRedisUrl ? Object.assign(new URL(testRedisUrl), { pathname: '/7' }).toString() : null;
if (url) {
  const redis = new Redis(url);
  await redis.flushdb();
  redis.disconnect();
}
const f = useFixture({ redisUrl: url });
const silent = { error: () => {}, warn: () => {} } as never;

let owner: string;
let gateway: { id: string; credential: string };

const call = (url: string, token: string) =>
  f.app.inject({ method: 'GET', url: `/api${url}`, headers: { 'x-auth-token': token } });
const post = (lines: unknown[]) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/events',
    headers: { authorization: `Bearer ${gateway.credential}`, 'content-type': 'application/x-ndjson' },
    payload: lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  });
const connection = (id: string) => ({
  id,
  at: new Date(Date.now() - 60_000).toISOString(),
  kind: 'connection',
  data: { action: 'tunnel_up' },
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const listed = async () =>
  (await call('/events/connections/acme?limit=100', owner)).json().items.map((e: { id: string }) => e.id);

describe.skipIf(!url)('telemetry ingest through a Redis stream', () => {
  let direct: Redis;
  beforeAll(async () => {
    direct = new Redis(url as string);
    owner = await f.signIn('admin@acme.test');
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/cybernodes/acme',
      headers: { 'x-auth-token': owner },
      payload: { name: 'Streamed PoP', kind: 'cybernode', region: 'Lab' },
    });
    const enrolled = await f.app.inject({
      method: 'POST',
      url: '/api/gw/enrol',
      payload: {
        token: created.json().enrolmentToken.token,
        publicKey: generateKeyPair().publicKey,
        hostname: 'streamed.test',
        version: '1.0.0',
      },
    });
    gateway = { id: created.json().cybernode.id, credential: enrolled.json().credential };
  });
  afterAll(() => direct?.disconnect());

  it('answers once the batch is in the stream; the consumer writes it, once however often it was sent', async () => {
    const batch = [connection('r1'), connection('r2')];
    const answer = await post(batch);
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toEqual({ accepted: 2, duplicates: 0, rejected: 0 });
    expect(await direct.xlen(TELEMETRY_STREAM)).toBeGreaterThanOrEqual(1);
    await post(batch);
    await until('both events written', async () => ((await listed()).length === 2 ? true : undefined));
    // Written once, and every batch acknowledged.
    await until('nothing pending', async () => {
      const [pending] = (await direct.xpending(TELEMETRY_STREAM, TELEMETRY_GROUP)) as [number];
      return pending === 0 ? true : undefined;
    });
    expect((await listed()).sort()).toEqual([`${gateway.id}.r1`, `${gateway.id}.r2`]);
  });

  it('keeps deployments that share the Redis apart by REDIS_PREFIX: another one never reads our batches', async () => {
    const theirs: unknown[] = [];
    const other = startStreamConsumer(url as string, async (batch) => void theirs.push(batch), silent, {
      keyPrefix: 'other-deployment:',
      consumer: 'other-deployment-consumer',
    });
    try {
      await until('the other deployment’s stream made', async () =>
        (await direct.exists(`other-deployment:${TELEMETRY_STREAM}`)) === 1 ? true : undefined,
      );
      const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
      for (const id of ids) expect((await post([connection(id)])).statusCode).toBe(202);
      await until('all ten written here', async () => {
        const here = await listed();
        return ids.every((id) => here.includes(`${gateway.id}.${id}`)) ? true : undefined;
      });
      expect(theirs).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  it("takes the console's own device events through the stream too, listed without a gateway", async () => {
    const user = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: { 'x-auth-token': owner },
      payload: { username: 'streamed@acme.test', firstname: 'Stream', lastname: 'Ed' },
    });
    const link = await f.app.inject({
      method: 'POST',
      url: `/api/enrolment/acme/users/${user.json().id}/link`,
      headers: { 'x-auth-token': owner },
      payload: {},
    });
    const before = await direct.xlen(TELEMETRY_STREAM);
    const enrolled = await f.app.inject({
      method: 'POST',
      url: '/api/enrol',
      payload: { token: link.json().token, device: { name: 'Streamed laptop', os: 'linux' } },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    expect(await direct.xlen(TELEMETRY_STREAM)).toBeGreaterThan(before);
    const event = await until('the enrolled event written by the consumer', async () => {
      const page = await call(`/events/devices/acme?deviceId=${enrolled.json().deviceId}`, owner);
      return page.json().items[0];
    });
    expect(event).toMatchObject({ action: 'enrolled', gateway: null, device: { name: 'Streamed laptop' } });
  });

  it('loses nothing a consumer read and never acknowledged (its instance killed): another takes it over', async () => {
    // A stream of this test's own, so the app's consumer stays out of it.
    const stream = 'palisade:telemetry:takeover';
    await direct.xgroup('CREATE', stream, TELEMETRY_GROUP, '0', 'MKSTREAM');
    const batch = {
      tenantId: f.acme.id,
      gatewayId: gateway.id,
      events: [
        {
          id: 'killed',
          at: new Date(Date.now() - 60_000).toISOString(),
          kind: 'connection',
          data: { action: 'tunnel_down' },
        },
      ],
    };
    await direct.xadd(stream, '*', 'batch', JSON.stringify(batch));
    // The consumer that reads it and dies before writing: the batch stays pending under its name.
    const read = (await direct.xreadgroup(
      'GROUP',
      TELEMETRY_GROUP,
      'killed-instance',
      'COUNT',
      10,
      'STREAMS',
      stream,
      '>',
    )) as [string, unknown[]][];
    expect(read[0][1]).toHaveLength(1);
    expect((await listed()).includes(`${gateway.id}.killed`)).toBe(false);
    const survivor = startStreamConsumer(
      url as string,
      (b) => writeBatch(f.database, b).then(() => {}),
      silent,
      {
        claimIdleMs: 300,
        consumer: 'survivor',
        stream,
      },
    );
    try {
      await until('the killed batch written by the survivor', async () =>
        (await listed()).includes(`${gateway.id}.killed`) ? true : undefined,
      );
      await until('acknowledged', async () => {
        const [pending] = (await direct.xpending(stream, TELEMETRY_GROUP)) as [number];
        return pending === 0 ? true : undefined;
      });
    } finally {
      await survivor.stop();
    }
  });

  it('refuses a line with a NUL before anything goes into the stream (400, not "accepted")', async () => {
    const before = await direct.xlen(TELEMETRY_STREAM);
    const line = { ...connection('nul'), data: { action: 'tunnel_up', peer: 'key\u0000' } };
    const answer = await post([connection('clean'), line]);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().details).toEqual([{ path: 'body.2.data.peer', message: 'validation.nulByte' }]);
    expect(await direct.xlen(TELEMETRY_STREAM)).toBe(before);
  });

  it('moves a batch the writer cannot store to the dead-letter stream after its attempts, and never again', async () => {
    const stream = 'palisade:telemetry:poison';
    const keys = streamKeys(stream);
    await direct.del(stream, keys.dead, keys.deadCount);
    await direct.xgroup('CREATE', stream, TELEMETRY_GROUP, '0', 'MKSTREAM');
    // A NUL the route would have refused (written to the stream by hand), and an entry that is not a batch.
    const unstorable = {
      tenantId: f.acme.id,
      gatewayId: gateway.id,
      events: [
        {
          id: 'poison',
          at: new Date(Date.now() - 60_000).toISOString(),
          kind: 'device',
          data: { action: 'upgraded', deviceId: '00000000-0000-4000-8000-000000000001', detail: 'a\u0000b' },
        },
      ],
    };
    await direct.xadd(stream, '*', 'batch', JSON.stringify(unstorable));
    await direct.xadd(stream, '*', 'batch', '{not json');
    let writes = 0;
    const consumer = startStreamConsumer(
      url as string,
      (b) => {
        writes++;
        return writeBatch(f.database, b).then(() => {});
      },
      silent,
      { claimIdleMs: 200, consumer: 'poisoned', stream, maxAttempts: 3 },
    );
    try {
      await until(
        'both entries dead-lettered',
        async () => ((await direct.xlen(keys.dead)) === 2 ? true : undefined),
        20_000,
      );
      const [pending] = (await direct.xpending(stream, TELEMETRY_GROUP)) as [number];
      expect(pending).toBe(0);
      expect(await deadLetterCount(direct, stream)).toBe(2);
      // The unstorable batch was tried 3 times (the broken entry never reached the writer), then left alone.
      expect(writes).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(writes).toBe(3);
      expect(await direct.xlen(keys.dead)).toBe(2);
      const dead = (await direct.xrange(keys.dead, '-', '+')) as [string, string[]][];
      const fields = dead.map(([, f]) =>
        Object.fromEntries(f.flatMap((_, i) => (i % 2 === 0 ? [[f[i], f[i + 1]]] : []))),
      );
      expect(fields.map((x) => x.deliveries)).toEqual(['3', '3']);
      const broken = fields.find((x) => x.batch === '{not json');
      const poison = fields.find((x) => x !== broken);
      expect(broken?.error).toMatch(/JSON/);
      expect(JSON.parse(poison?.batch ?? '')).toMatchObject({ events: [{ id: 'poison' }] });
      // What PostgreSQL said, with its SQLSTATE (a data exception, class 22).
      expect(poison?.error).toMatch(/^22/);
    } finally {
      await consumer.stop();
    }
    expect((await listed()).includes(`${gateway.id}.poison`)).toBe(false);
  });
});
