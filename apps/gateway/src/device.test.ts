import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, publicKeyOf } from '@palisade/gateway-config/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceRevokedError } from './client';
import { configVersion, type DeviceEvent, runDevice } from './device';
import type { DeviceState } from './state';
import { AGENT_VERSION } from './version';

/**
 * `--device` against a scripted server: enrols once (a restart reuses the credential), checks in with its agent
 * version, the configuration it enforces and its posture, rewrites device.conf when the configuration changes,
 * rotates an expired key with a new key pair whose private part never leaves it, writes nothing while pending or
 * disabled, and stops on 401. The real server and the tunnel: dataplane.test.ts, section (4).
 */
const root = mkdtempSync(join(tmpdir(), 'pgw-device-'));
const gateway = generateKeyPair().publicKey;
const CREDENTIAL = 'pal_dev_test';

const configOf = (allowedIps: string) =>
  `[Interface]\nPrivateKey = @PALISADE_GATEWAY_PRIVATE_KEY@\nAddress = 100.64.0.7/32\nDNS = 100.100.0.1\n\n` +
  `[Peer]\nPublicKey = ${gateway}\nEndpoint = 192.0.2.1:51820\nAllowedIPs = ${allowedIps}\n`;

const script = {
  state: 'active' as 'active' | 'pending' | 'disabled' | 'expired',
  config: configOf('100.100.0.0/24'),
  revoked: false,
  enrolments: [] as Record<string, unknown>[],
  checkins: [] as {
    agentVersion: string;
    enforcedVersion: string | null;
    posture: Record<string, boolean>;
  }[],
  rotations: [] as string[],
  /** Every request body, to prove no private key is ever sent. */
  bodies: [] as string[],
};
let server: Server;
let url = '';

const answerOf = () => ({
  state: script.state,
  keyExpiresAt: '2030-01-01T00:00:00.000Z',
  wireguard:
    script.state === 'active'
      ? {
          address: '100.64.0.7/32',
          dns: ['100.100.0.1'],
          peers: [
            {
              gatewayId: 'g1',
              name: 'Lab',
              publicKey: gateway,
              endpoint: '192.0.2.1:51820',
              allowedIps: ['100.100.0.0/24'],
            },
          ],
          config: script.config,
        }
      : null,
  checkinSeconds: 60,
});

function handle(request: IncomingMessage, response: ServerResponse, body: string) {
  const json = (status: number, value: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  script.bodies.push(body);
  if (request.url === '/api/enrol') {
    const input = JSON.parse(body);
    script.enrolments.push(input);
    if (input.token !== 'pal_enr_test' && input.token !== 'pal_enr_pending') {
      return json(404, { message: 'This enrolment link is invalid or has expired.' });
    }
    return json(201, {
      deviceId: '5b0e7a3c-0000-4000-8000-000000000007',
      tenant: 'acme',
      userId: null,
      deviceToken: CREDENTIAL,
      wireguard: answerOf().wireguard,
    });
  }
  if (script.revoked || request.headers.authorization !== `Bearer ${CREDENTIAL}`) {
    return json(401, { message: 'A valid device credential is required.' });
  }
  if (request.url === '/api/device/checkin') {
    script.checkins.push(JSON.parse(body));
    return json(200, answerOf());
  }
  if (request.url === '/api/device/rotate') {
    script.rotations.push(JSON.parse(body).publicKey);
    script.state = 'active';
    return json(200, answerOf());
  }
  json(404, {});
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const stateIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as DeviceState;
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the device mode', () => {
  it('enrols once, follows its configuration, rotates an expired key and stops on 401', async () => {
    const dir = join(root, 'active');
    const events: DeviceEvent[] = [];
    const privateKeys = new Set<string>();
    const start = () => {
      const stop = new AbortController();
      const done = runDevice({
        server: url,
        token: 'pal_enr_test',
        name: 'Build box',
        os: 'linux',
        dir,
        checkinMs: 30,
        backoff: { initialMs: 20, maxMs: 100 },
        posture: async () => ({ firewall: true }),
        signal: stop.signal,
        log: () => {},
        onEvent: (event) => events.push(event),
      });
      done.catch(() => {});
      return { stop, done };
    };
    const configured = () => events.filter((e) => e.type === 'configured').length;
    let run = start();

    // Enrolled with the public key made here; device.conf holds the private key, both files 0600.
    await until('the first configuration', 5_000, () => (configured() === 1 ? true : undefined));
    const first = stateIn(dir);
    privateKeys.add(first.privateKey);
    expect(script.enrolments).toEqual([
      { token: 'pal_enr_test', device: { name: 'Build box', os: 'linux' }, publicKey: first.publicKey },
    ]);
    expect(first.device).toMatchObject({
      deviceId: '5b0e7a3c-0000-4000-8000-000000000007',
      credential: CREDENTIAL,
    });
    expect(modeOf(join(dir, 'state.json'))).toBe(0o600);
    const conf = join(dir, 'device.conf');
    expect(modeOf(conf)).toBe(0o600);
    expect(readFileSync(conf, 'utf8')).toContain(`PrivateKey = ${first.privateKey}\n`);
    expect(readFileSync(conf, 'utf8')).not.toContain('@PALISADE');

    // Check-ins: the agent version, the posture, the configuration's version once it is enforced.
    const v1 = configVersion(script.config, first.publicKey);
    await until('v1 reported', 2_000, () => script.checkins.find((c) => c.enforcedVersion === v1));
    expect(script.checkins[0]).toEqual({
      agentVersion: AGENT_VERSION,
      enforcedVersion: null,
      posture: { firewall: true },
    });

    // A changed configuration (a route rule added a network) is rewritten and reported.
    script.config = configOf('100.100.0.0/24, 10.99.0.0/24');
    await until('v2 written', 2_000, () =>
      readFileSync(conf, 'utf8').includes('10.99.0.0/24') ? true : undefined,
    );
    const v2 = configVersion(script.config, first.publicKey);
    await until('v2 reported', 2_000, () => script.checkins.find((c) => c.enforcedVersion === v2));
    expect(configured()).toBe(2);

    // A restart reuses the credential: no second enrolment.
    run.stop.abort();
    await expect(run.done).resolves.toMatchObject({ deviceId: first.device?.deviceId });
    const before = script.checkins.length;
    run = start();
    await until('a check-in after the restart', 2_000, () =>
      script.checkins.length > before + 1 ? true : undefined,
    );
    expect(events.some((e) => e.type === 'resumed')).toBe(true);
    expect(script.enrolments).toHaveLength(1);

    // Expired: a new key pair made here, its public key sent, the private one kept in state.json and device.conf.
    script.state = 'expired';
    await until('the rotation', 2_000, () => (script.rotations.length === 1 ? true : undefined));
    await until('the new key in device.conf', 2_000, () => {
      const now = stateIn(dir);
      return now.publicKey !== first.publicKey && readFileSync(conf, 'utf8').includes(now.privateKey)
        ? now
        : undefined;
    });
    const rotated = stateIn(dir);
    privateKeys.add(rotated.privateKey);
    expect(script.rotations).toEqual([rotated.publicKey]);
    expect(publicKeyOf(rotated.privateKey)).toBe(rotated.publicKey);
    expect(rotated.rotating).toBeUndefined();
    expect(rotated.device?.credential).toBe(CREDENTIAL);
    const v3 = configVersion(script.config, rotated.publicKey);
    await until('the rotated configuration reported', 2_000, () =>
      script.checkins.find((c) => c.enforcedVersion === v3),
    );

    // Disabled: keeps checking in, the tunnel down (no device.conf); enabled again, it comes back.
    script.state = 'disabled';
    await until('device.conf removed', 2_000, () => (existsSync(conf) ? undefined : true));
    const disabledAt = script.checkins.length;
    await until('check-ins while disabled', 2_000, () =>
      script.checkins.length > disabledAt + 2 ? true : undefined,
    );
    expect(script.checkins.at(-1)?.enforcedVersion).toBeNull();
    expect(events).toContainEqual({ type: 'down', state: 'disabled' });
    script.state = 'active';
    await until('device.conf back', 2_000, () => (existsSync(conf) ? true : undefined));

    // The private keys never left: no request carried one.
    for (const key of privateKeys) expect(script.bodies.join('\n')).not.toContain(key);

    // 401: the credential was revoked; it stops, and the state keeps no credential nor the old key.
    script.revoked = true;
    await expect(run.done).rejects.toBeInstanceOf(DeviceRevokedError);
    await expect(run.done).rejects.toThrow(
      /device's credential \(401: A valid device credential is required\.\)/,
    );
    const after = stateIn(dir);
    expect(after.device).toBeUndefined();
    expect(after.publicKey).not.toBe(rotated.publicKey);
    script.revoked = false;
  });

  it('writes no configuration while pending, and refuses an unknown token', async () => {
    script.state = 'pending';
    const dir = join(root, 'pending');
    const events: DeviceEvent[] = [];
    const stop = new AbortController();
    const before = script.checkins.length;
    const done = runDevice({
      server: url,
      token: 'pal_enr_pending',
      dir,
      checkinMs: 20,
      posture: async () => ({}),
      signal: stop.signal,
      log: () => {},
      onEvent: (event) => events.push(event),
    });
    await until('check-ins while pending', 2_000, () =>
      script.checkins.length > before + 3 ? true : undefined,
    );
    expect(existsSync(join(dir, 'device.conf'))).toBe(false);
    expect(events.filter((e) => e.type === 'down')).toEqual([{ type: 'down', state: 'pending' }]);
    expect(events.some((e) => e.type === 'configured')).toBe(false);
    stop.abort();
    await expect(done).resolves.toMatchObject({ enforcedVersion: null });
    script.state = 'active';

    await expect(
      runDevice({ server: url, token: 'pal_enr_unknown', dir: join(root, 'unknown'), log: () => {} }),
    ).rejects.toThrow(/token is not valid/);
  });
});
