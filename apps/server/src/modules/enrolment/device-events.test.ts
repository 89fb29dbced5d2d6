import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { CONSOLE_SOURCE, eventStoreOf } from '../telemetry/telemetry.service';

/**
 * The device events the console records itself (device-events.ts): enrolment, key rotation, a posture that
 * changed and an agent upgraded at a check-in, listed on /events/devices without a gateway; a check-in that
 * changes nothing records nothing, and a telemetry failure does not fail the device's request.
 */
const f = useFixture();

let owner: string;
let user: { id: string; username: string };

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? { 'x-auth-token': token } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const asDevice = (credential: string, url: string, payload: unknown) =>
  f.app.inject({
    method: 'POST',
    url: `/api${url}`,
    headers: { authorization: `Bearer ${credential}` },
    payload: payload as object,
  });

interface Listed {
  id: string;
  at: string;
  action: string;
  detail: string | null;
  gateway: { id: string; name: string } | null;
  user: { id: string; name: string } | null;
  device: { id: string; name: string } | null;
}

async function deviceEvents(deviceId: string): Promise<Listed[]> {
  const res = await call('GET', `/events/devices/acme?deviceId=${deviceId}&order=asc&limit=100`, owner);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

const checkin = async (credential: string, report: Record<string, unknown>) => {
  const res = await asDevice(credential, '/device/checkin', report);
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const created = await call('POST', '/subscriber/user/acme', owner, {
    username: 'ada@acme.test',
    firstname: 'Ada',
    lastname: 'Lovelace',
  });
  expect(created.statusCode, created.body).toBe(201);
  user = { id: created.json().id, username: 'ada@acme.test' };
});

describe('device events the console records', () => {
  it('lists enrolled, posture_changed, upgraded and key_rotated after the matching calls', async () => {
    const link = await call('POST', `/enrolment/acme/users/${user.id}/link`, owner, {});
    expect(link.statusCode, link.body).toBe(201);
    const firstKey = generateKeyPair().publicKey;
    const enrolled = await call('POST', '/enrol', undefined, {
      token: link.json().token,
      device: { name: "Ada's laptop", os: 'linux' },
      publicKey: firstKey,
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    const { deviceId, deviceToken } = enrolled.json() as { deviceId: string; deviceToken: string };

    const [first, ...none] = await deviceEvents(deviceId);
    expect(none).toEqual([]);
    expect(first).toEqual({
      id: `${CONSOLE_SOURCE}.${first.id.split('.')[1]}`,
      at: expect.any(String),
      action: 'enrolled',
      detail: "enrolled with the user's link (linux), with a WireGuard key",
      // The console's own: no gateway.
      source: 'console',
      gateway: null,
      user: { id: user.id, name: user.username },
      device: { id: deviceId, name: "Ada's laptop" },
    });

    // The first report: its posture is news (unknown → compliant), its agent version is no upgrade.
    await checkin(deviceToken, { agentVersion: '1.4.2', posture: { diskEncrypted: true, firewall: true } });
    // The same again, and a check that changes while the posture stays: nothing.
    await checkin(deviceToken, { agentVersion: '1.4.2', posture: { diskEncrypted: true, firewall: true } });
    await checkin(deviceToken, {
      agentVersion: '1.4.2',
      posture: { diskEncrypted: true, firewall: true, screenLock: true },
    });
    expect((await deviceEvents(deviceId)).map((e) => [e.action, e.detail])).toEqual([
      ['enrolled', expect.any(String)],
      ['posture_changed', 'posture unknown → compliant: all 2 checks pass'],
    ]);

    // Failing, still failing (nothing new), then a new agent.
    await checkin(deviceToken, {
      agentVersion: '1.4.2',
      posture: { diskEncrypted: false, firewall: true, screenLock: true },
    });
    await checkin(deviceToken, {
      agentVersion: '1.4.2',
      posture: { diskEncrypted: false, firewall: false, screenLock: true },
    });
    await checkin(deviceToken, {
      agentVersion: '1.5.0',
      posture: { diskEncrypted: false, firewall: false, screenLock: true },
    });
    // A new key, then the same key again (a retry: nothing rotated).
    const secondKey = generateKeyPair().publicKey;
    const rotated = await asDevice(deviceToken, '/device/rotate', { publicKey: secondKey });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const again = await asDevice(deviceToken, '/device/rotate', { publicKey: secondKey });
    expect(again.statusCode, again.body).toBe(200);

    const events = await deviceEvents(deviceId);
    expect(events.map((e) => [e.action, e.detail])).toEqual([
      ['enrolled', expect.any(String)],
      ['posture_changed', 'posture unknown → compliant: all 2 checks pass'],
      ['posture_changed', 'posture compliant → failing: disk encryption off'],
      ['upgraded', 'agent 1.4.2 → 1.5.0'],
      ['key_rotated', `WireGuard key ${firstKey.slice(0, 8)}… → ${secondKey.slice(0, 8)}…`],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        source: 'console',
        gateway: null,
        user: { id: user.id },
        device: { id: deviceId },
      });
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    // The action filter and the CSV (the console in the gateway column) see them too.
    const upgrades = await call('GET', `/events/devices/acme?action=upgraded&deviceId=${deviceId}`, owner);
    expect(upgrades.json().items.map((e: Listed) => e.action)).toEqual(['upgraded']);
    const csv = await call('GET', `/events/devices/acme/export?deviceId=${deviceId}&action=upgraded`, owner);
    expect(csv.body.trim().split('\n')[1]).toMatch(
      /^[^,]+,upgraded,console,ada@acme\.test,Ada's laptop,agent 1\.4\.2 → 1\.5\.0$/,
    );
  });

  it('names the deployment key and a wait for approval, with no user', async () => {
    const settings = await call('PUT', '/devices/acme/settings', owner, {
      requireApproval: true,
      keyExpiryDays: null,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    try {
      const key = await call('POST', '/enrolment/acme/keys', owner, { name: 'Kiosk roll-out' });
      expect(key.statusCode, key.body).toBe(201);
      const enrolled = await call('POST', '/enrol', undefined, {
        token: key.json().token,
        device: { name: 'Lobby kiosk', os: 'windows' },
      });
      expect(enrolled.statusCode, enrolled.body).toBe(201);
      expect(await deviceEvents(enrolled.json().deviceId)).toMatchObject([
        {
          action: 'enrolled',
          detail:
            'enrolled with deployment key "Kiosk roll-out" (windows), without a WireGuard key, waiting for approval',
          user: null,
          gateway: null,
        },
      ]);
    } finally {
      await call('PUT', '/devices/acme/settings', owner, { requireApproval: false, keyExpiryDays: null });
    }
  });

  it('answers the device even when the event store fails, and records nothing then', async () => {
    const link = await call('POST', `/enrolment/acme/users/${user.id}/link`, owner, {});
    const enrolled = await call('POST', '/enrol', undefined, {
      token: link.json().token,
      device: { name: "Ada's phone", os: 'android' },
    });
    const { deviceId, deviceToken } = enrolled.json() as { deviceId: string; deviceToken: string };
    await checkin(deviceToken, { agentVersion: '2.0.0', posture: { screenLock: true } });
    const store = eventStoreOf(f.database);
    const ensureDays = store.ensureDays;
    store.ensureDays = async () => {
      throw new Error('the event store is down');
    };
    try {
      await checkin(deviceToken, { agentVersion: '2.1.0', posture: { screenLock: false } });
    } finally {
      store.ensureDays = ensureDays;
    }
    expect((await deviceEvents(deviceId)).map((e) => e.action)).toEqual(['enrolled', 'posture_changed']);
    // What the check-in reported was kept all the same.
    const detail = await call('GET', `/devices/acme/${deviceId}`, owner);
    expect(detail.json()).toMatchObject({ agentVersion: '2.1.0', posture: 'failing' });
  });
});
