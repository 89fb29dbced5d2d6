import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

/**
 * Issue 23: decision events say who made them — a gateway that saw the request, or `--simulate-traffic` — and
 * every dashboard counts both (marking how many were simulated) or only one source.
 */
const f = useFixture();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let owner: string;
let gateway: { id: string; credential: string };

const call = (url: string, token?: string) =>
  f.app.inject({ method: 'GET', url: `/api${url}`, headers: token ? { 'x-auth-token': token } : {} });
const post = (credential: string, lines: unknown[]) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/events',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/x-ndjson' },
    payload: lines.map((line) => JSON.stringify(line)).join('\n'),
  });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const range = (fromAgo: number) =>
  `from=${encodeURIComponent(ago(fromAgo))}&to=${encodeURIComponent(ago(-MINUTE))}`;
const decision = (
  id: string,
  destination: string,
  verdict: 'allow' | 'block',
  source?: 'gateway' | 'simulated',
  at = ago(2 * MINUTE),
) => ({
  id,
  at,
  kind: 'decision',
  data: { layer: 'dns', decision: verdict, destination, ...(source ? { source } : {}) },
});

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const created = await f.app.inject({
    method: 'POST',
    url: '/api/cybernodes/acme',
    headers: { 'x-auth-token': owner },
    payload: { name: 'Source PoP', kind: 'cybernode', region: 'Lab' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: 'source-pop.test',
      version: '1.0.0',
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  gateway = { id: created.json().cybernode.id, credential: enrolled.json().credential };
  const answer = await post(gateway.credential, [
    // An older gateway sends no source: what it saw.
    decision('real-1', 'seen.example', 'block'),
    decision('real-2', 'seen.example', 'allow', 'gateway'),
    decision('sim-1', 'made-up.example', 'block', 'simulated'),
    decision('sim-2', 'made-up.example', 'block', 'simulated'),
    decision('sim-3', 'made-up.example', 'allow', 'simulated', ago(3 * 24 * HOUR)),
    { id: 'c-1', at: ago(2 * MINUTE), kind: 'connection', data: { action: 'connected' } },
  ]);
  expect(answer.statusCode, answer.body).toBe(202);
  expect(answer.json()).toMatchObject({ accepted: 6 });
});

describe('decision sources on the dashboards and event screens', () => {
  it('counts both sources by default and says how many decisions were simulated', async () => {
    const overview = (await call(`/telemetry/acme/overview?${range(HOUR)}`, owner)).json();
    expect(overview.totals).toMatchObject({
      decisions: 4,
      blocked: 3,
      allowed: 1,
      simulated: 2,
      connections: 1,
    });
    // Per hour (a week), from the hourly and daily rollups: the older simulated decision too.
    const week = (await call(`/telemetry/acme/overview?${range(7 * 24 * HOUR)}`, owner)).json();
    expect(week.totals).toMatchObject({ decisions: 5, simulated: 3 });
    const top = (await call(`/telemetry/acme/top?dimension=destination&${range(HOUR)}`, owner)).json();
    expect(top.simulated).toBe(2);
    expect(top.items.map((i: { value: string }) => i.value)).toEqual(['made-up.example', 'seen.example']);
  });

  it('leaves the simulated decisions out with source=gateway, and shows only them with source=simulated', async () => {
    for (const days of [0, 7]) {
      const span = days === 0 ? HOUR : days * 24 * HOUR;
      const real = (await call(`/telemetry/acme/overview?source=gateway&${range(span)}`, owner)).json();
      expect(real.totals).toMatchObject({
        decisions: 2,
        blocked: 1,
        allowed: 1,
        simulated: 0,
        connections: 1,
      });
      expect(real.layers[0]).toEqual({ layer: 'dns', allowed: 1, blocked: 1 });
      expect(real.series.reduce((n: number, p: { blocked: number }) => n + p.blocked, 0)).toBe(1);
    }
    const top = (
      await call(`/telemetry/acme/top?dimension=destination&source=gateway&${range(HOUR)}`, owner)
    ).json();
    expect(top).toMatchObject({ simulated: 0, items: [{ value: 'seen.example', allowed: 1, blocked: 1 }] });
    const onlySimulated = (
      await call(`/telemetry/acme/overview?source=simulated&${range(HOUR)}`, owner)
    ).json();
    expect(onlySimulated.totals).toMatchObject({ decisions: 2, blocked: 2, simulated: 2 });
  });

  it('marks each simulated decision of the drill-down and filters by source', async () => {
    const all = (await call(`/events/decisions/acme?${range(HOUR)}`, owner)).json();
    const marks = Object.fromEntries(
      all.items.map((e: { id: string; simulated: boolean }) => [e.id.split('.')[1], e.simulated]),
    );
    expect(marks).toEqual({ 'real-1': false, 'real-2': false, 'sim-1': true, 'sim-2': true });
    const real = (await call(`/events/decisions/acme?source=gateway&${range(HOUR)}`, owner)).json();
    expect(real.items.map((e: { id: string }) => e.id.split('.')[1]).sort()).toEqual(['real-1', 'real-2']);
  });

  it('refuses an unknown source, on the wire and in a query', async () => {
    const bad = await call(`/telemetry/acme/overview?source=guess&${range(HOUR)}`, owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['query.source']);
    const line = await post(gateway.credential, [
      decision('bad-1', 'x.example', 'allow', 'made-up' as never),
    ]);
    expect(line.statusCode).toBe(400);
    expect(line.json().details.map((d: { path: string }) => d.path)).toContain('body.1.data.source');
    expect((await call(`/telemetry/acme/overview?source=gateway&${range(HOUR)}`)).statusCode).toBe(401);
  });

  it('streams the live view of everything, marking the simulated decisions, or of what the gateways saw', async () => {
    const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
    const open = async (query: string) => {
      const controller = new AbortController();
      const response = await fetch(`${address}/api/telemetry/acme/live${query}`, {
        headers: { 'x-auth-token': owner },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      const ticks: {
        decisions: number;
        blocked: number;
        simulated: number;
        destinations: { value: string }[];
      }[] = [];
      const read = async () => {
        while (!controller.signal.aborted) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          text += decoder.decode(value);
          const blocks = text.split('\n\n');
          text = blocks.pop() ?? '';
          for (const block of blocks) {
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (/event: tick/.test(block) && data) ticks.push(JSON.parse(data));
          }
        }
      };
      const reading = read();
      return {
        ticks,
        close: async () => {
          controller.abort();
          await reading;
        },
      };
    };
    const all = await open('');
    const real = await open('?source=gateway');
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const answer = await post(gateway.credential, [
        decision('live-real', 'live-seen.example', 'block', undefined, ago(0)),
        decision('live-sim', 'live-made-up.example', 'block', 'simulated', ago(0)),
      ]);
      expect(answer.statusCode, answer.body).toBe(202);
      const until = async <T extends { decisions: number }>(ticks: T[]) => {
        for (let i = 0; i < 50 && !ticks.some((t) => t.decisions > 0); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return ticks.find((t) => t.decisions > 0);
      };
      expect(await until(all.ticks)).toMatchObject({ decisions: 2, blocked: 2, simulated: 1 });
      const onlyReal = await until(real.ticks);
      expect(onlyReal).toMatchObject({ decisions: 1, blocked: 1, simulated: 0 });
      expect(onlyReal?.destinations.map((d) => d.value)).toEqual(['live-seen.example']);
    } finally {
      await all.close();
      await real.close();
    }
    const bad = await call(`/telemetry/acme/live?source=simulated`, owner);
    expect(bad.statusCode).toBe(400);
  });
});
