import type {
  DeviceEventData,
  DeviceOs,
  DevicePosture,
  DeviceState,
  EnrolmentMethod,
  PostureCheck,
  PostureReport,
} from '@palisade/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { recordConsoleEvents } from '../telemetry/telemetry.service';

/**
 * The device events the console sees itself (telemetry kind `device`, listed on `/events/devices`): a device
 * enrolled, its key rotated, its posture or its agent changed at a check-in. They go to the telemetry event store
 * (telemetry.service.ts `recordConsoleEvents`, source `CONSOLE_SOURCE`) after the change is committed; the
 * event store writes in a transaction of its own (and may first make a day's partition, which the tenant's
 * restricted role cannot), so an event is recorded only for what was saved.
 */

/** All reported checks pass → compliant; one fails → failing; none reported → unknown. */
export function postureOf(report: PostureReport): DevicePosture {
  const values = Object.values(report);
  if (values.length === 0) return 'unknown';
  return values.every(Boolean) ? 'compliant' : 'failing';
}

/** A failing check in words. */
const FAILING: Record<PostureCheck, string> = {
  diskEncrypted: 'disk encryption off',
  firewall: 'firewall off',
  screenLock: 'screen lock off',
  antivirus: 'antivirus off',
  osUpToDate: 'operating system out of date',
};

/** `posture compliant → failing: disk encryption off, firewall off` and the like. */
export function postureDetail(before: PostureReport, after: PostureReport): string {
  const from = postureOf(before);
  const to = postureOf(after);
  const change = `posture ${from} → ${to}`;
  if (to === 'failing') {
    const failing = (Object.entries(after) as [PostureCheck, boolean][])
      .filter(([, passes]) => !passes)
      .map(([check]) => FAILING[check] ?? `${check} failing`);
    return `${change}: ${failing.join(', ')}`;
  }
  if (to === 'compliant') {
    const count = Object.keys(after).length;
    return `${change}: ${count === 1 ? 'the one check passes' : `all ${count} checks pass`}`;
  }
  return `${change}: no checks reported`;
}

const ENROLLED_WITH: Record<EnrolmentMethod, string> = {
  link: "the user's link",
  agentless: "the user's browser link",
  rmm: 'deployment key',
};

/** `enrolled with deployment key "Intune roll-out" (windows), waiting for approval` and the like. */
export function enrolledDetail(device: {
  via: EnrolmentMethod;
  keyName: string;
  os: DeviceOs;
  state: DeviceState;
  hasKey: boolean;
}): string {
  const via = device.via === 'rmm' ? `deployment key "${device.keyName}"` : ENROLLED_WITH[device.via];
  const notes = [
    device.hasKey ? 'with a WireGuard key' : 'without a WireGuard key',
    ...(device.state === 'pending' ? ['waiting for approval'] : []),
  ];
  return `enrolled with ${via} (${device.os}), ${notes.join(', ')}`;
}

const keyText = (key: string) => `${key.slice(0, 8)}…`;

/** `WireGuard key AbCdEfGh… → IjKlMnOp…, valid until 2026-04-05` (or `first WireGuard key …`). */
export function keyDetail(before: string | null, after: string, expiresAt: Date | null): string {
  const change = before
    ? `WireGuard key ${keyText(before)} → ${keyText(after)}`
    : `first WireGuard key ${keyText(after)}`;
  return expiresAt ? `${change}, valid until ${expiresAt.toISOString().slice(0, 10)}` : change;
}

/**
 * What a check-in changed that is worth an event: the computed posture (not a check that changed while the
 * posture stayed), and the agent's version when there was one before (the first report is no upgrade).
 */
export function checkinEvents(
  device: { deviceId: string; userId: string | null },
  before: { agentVersion: string | null; posture: PostureReport },
  after: { agentVersion: string; posture: PostureReport },
): DeviceEventData[] {
  const events: DeviceEventData[] = [];
  if (postureOf(before.posture) !== postureOf(after.posture)) {
    events.push({
      action: 'posture_changed',
      ...device,
      detail: postureDetail(before.posture, after.posture),
    });
  }
  if (before.agentVersion !== null && before.agentVersion !== after.agentVersion) {
    events.push({
      action: 'upgraded',
      ...device,
      detail: `agent ${before.agentVersion} → ${after.agentVersion}`,
    });
  }
  return events;
}

/**
 * Records device events after the change they report was committed. Never fails the caller: the device's or
 * the user's request succeeded whatever happens here, so a failure is logged (`log`, else the console).
 */
export async function recordDeviceEvents(
  database: Database,
  tenantId: string,
  events: readonly DeviceEventData[],
  log?: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  if (events.length === 0) return;
  try {
    await recordConsoleEvents(
      database,
      tenantId,
      events.map((data) => ({ kind: 'device', data: { ...data, detail: data.detail?.slice(0, 500) } })),
    );
  } catch (err) {
    const what = { err, tenantId, events: events.map((e) => `${e.action} ${e.deviceId}`) };
    if (log) log.warn(what, 'device events not recorded in telemetry');
    else console.warn('device events not recorded in telemetry', what);
  }
}
