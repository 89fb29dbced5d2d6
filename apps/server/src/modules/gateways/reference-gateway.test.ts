import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentEvent, GatewayRevokedError, GwClient, runAgent } from '@palisade/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from '../policies/policies.test-kit';

/**
 * The reference gateway (apps/gateway) against a real server on a real port: it enrols with its own key, takes
 * the bundle, writes the artefacts and heartbeats; a DNS-layer block reaches its RPZ zone within a second; a
 * restart resumes without enrolling; retiring the gateway stops it with the 401 message. (Without --apply: the
 * data plane is apps/gateway/src/dataplane.test.ts.)
 */
const f = useFixture();
const policies = policyApi(f);
let owner: string;
let server: string;
const dir = mkdtempSync(join(tmpdir(), 'pgw-ref-'));

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(f.app.server.address() as AddressInfo).port}`;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: { 'x-auth-token': owner },
    ...(payload ? { payload } : {}),
  });

async function until<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function start(token: string | undefined, events: AgentEvent[]) {
  const stop = new AbortController();
  const logs: string[] = [];
  const done = runAgent({
    server,
    token,
    dir,
    hostname: 'reference.acme.test',
    signal: stop.signal,
    backoff: { initialMs: 50, maxMs: 500 },
    log: (line) => logs.push(line),
    onEvent: (event) => events.push(event),
  });
  // Observed, so an early failure is not an unhandled rejection; the test awaits `done` itself.
  done.catch(() => {});
  return { stop, done, logs };
}

describe('the reference gateway against the server', () => {
  it('enrols, enforces, follows a DNS block within a second, resumes after a restart and stops when retired', async () => {
    const created = await call('POST', '/cybernodes/acme', {
      name: 'Reference',
      kind: 'cgw',
      region: 'eu-central',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id: string = created.json().cybernode.id;
    const token: string = created.json().enrolmentToken.token;

    const events: AgentEvent[] = [];
    const first = start(token, events);
    const enforced = await until('the first bundle enforced', 10_000, () =>
      events.find((e): e is Extract<AgentEvent, { type: 'enforced' }> => e.type === 'enforced'),
    );
    expect(events[0]).toMatchObject({ type: 'enrolled', gatewayId: id, listenPort: 51820 });
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    expect(statSync(join(dir, 'state.json')).mode & 0o777).toBe(0o600);
    expect(state.enrolment.credential).toMatch(/^gw_/);
    // The artefacts, the WireGuard one with the gateway's own key in place of the placeholder.
    const wireguard = readFileSync(join(dir, 'wireguard.conf'), 'utf8');
    expect(wireguard).toContain(`PrivateKey = ${state.privateKey}`);
    expect(wireguard).toContain(`Address = ${state.enrolment.address}`);
    expect(readFileSync(join(dir, 'nftables.nft'), 'utf8')).toContain('table inet palisade');
    expect(readFileSync(join(dir, 'rpz.zone'), 'utf8')).toContain('SOA');
    expect(JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')).version).toBe(enforced.version);

    // The administrator sees it online, enforcing the current version, with its own public key.
    const online = await until('online and up to date', 5_000, async () => {
      const shown = (await call('GET', `/cybernodes/acme/${id}`)).json();
      return shown.status === 'online' && shown.enforcedVersion === shown.currentVersion ? shown : undefined;
    });
    expect(online).toMatchObject({
      publicKey: state.publicKey,
      hostname: 'reference.acme.test',
      version: '0.1.0',
      enforcedVersion: enforced.version,
      isDrifting: false,
    });
    expect(online.metrics.memoryPercent).toBeGreaterThan(0);

    // A DNS-layer block: in the zone, and reported as enforced, within a second of the save.
    const saved = Date.now();
    await policies.create(owner, {
      type: 'other',
      name: 'Block reference',
      rules: [rule({ name: 'Reference block', url: 'ref-block.example' })],
    });
    const savedAt = Date.now();
    await until('the zone with the block', 1_000, () =>
      readFileSync(join(dir, 'rpz.zone'), 'utf8').includes('ref-block.example') ? true : undefined,
    );
    const written = Date.now() - savedAt;
    const reported = await until('the new version reported', 1_000, async () => {
      const shown = (await call('GET', `/cybernodes/acme/${id}`)).json();
      return shown.enforcedVersion === shown.currentVersion && shown.enforcedVersion !== enforced.version
        ? shown
        : undefined;
    });
    const total = Date.now() - savedAt;
    console.info(
      `reference gateway: save took ${savedAt - saved} ms; then the zone was written ${written} ms and the enforced version reported ${total} ms after the save answered`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')).version).toBe(reported.enforcedVersion);
    // It came as a delta from the version held (gzipped), checked by its SHA-256 and applied.
    expect(first.logs).toContainEqual(
      expect.stringMatching(
        new RegExp(`^bundle ${reported.enforcedVersion}: a delta from ${enforced.version} \\(\\d+ bytes\\)$`),
      ),
    );

    // A restart resumes with the stored credential (the token is used up: enrolling again would fail).
    first.stop.abort();
    expect((await first.done).enforcedVersion).toBe(reported.enforcedVersion);
    const again: AgentEvent[] = [];
    const second = start(token, again);
    // It enforces the bundle it stored at once (before the console answers), then long-polls from it.
    await until('the restarted agent enforcing', 5_000, () =>
      again.find((e) => e.type === 'restored' && e.version === reported.enforcedVersion),
    );
    expect(again[0]).toEqual({ type: 'resumed', gatewayId: id });
    expect(again.some((e) => e.type === 'enrolled')).toBe(false);

    // Its client also sends event batches (NDJSON), stored once.
    const batch = [
      {
        id: 'ref-1',
        at: new Date().toISOString(),
        kind: 'decision' as const,
        data: { layer: 'dns', decision: 'allow', destination: 'a.example' },
      },
    ];
    const client = new GwClient(server);
    expect(await client.events(state.enrolment.credential, batch)).toMatchObject({
      accepted: 1,
      duplicates: 0,
    });
    expect(await client.events(state.enrolment.credential, batch)).toMatchObject({
      accepted: 0,
      duplicates: 1,
    });

    // Retired: the credential stops working and the agent stops with the 401 message.
    const retiredAt = Date.now();
    expect((await call('DELETE', `/cybernodes/acme/${id}`)).statusCode).toBe(200);
    const error = await second.done.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayRevokedError);
    expect((error as Error).message).toMatch(/401.*revoked.*retired/);
    expect(Date.now() - retiredAt).toBeLessThan(5_000);
    // The credential is forgotten: a new start asks for a token.
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).enrolment).toBeUndefined();
    await expect(runAgent({ server, dir, log: () => {} })).rejects.toThrow(/--token/);
  });
});
