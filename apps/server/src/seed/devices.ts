import { DeviceCheckin, type DeviceOs } from '@palisade/contracts';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups } from '../db/schema';
import type { Ctx } from '../lib/context';
import { createMailer } from '../lib/mailer';
import * as devices from '../modules/enrolment/devices.service';
import * as enrolment from '../modules/enrolment/enrolment.service';

/** Devices the demo enrols for the first users: [name suffix, os, what its client reported (null: never)]. */
const DEMO_DEVICES: Array<[string, DeviceOs, DeviceCheckin | null]> = [
  [
    'laptop',
    'windows',
    { agentVersion: '2.4.1', posture: { diskEncrypted: true, firewall: true, antivirus: true } },
  ],
  [
    'MacBook',
    'mac',
    { agentVersion: '2.4.1', posture: { diskEncrypted: true, firewall: true, screenLock: true } },
  ],
  ['workstation', 'linux', { agentVersion: '2.3.0', posture: { diskEncrypted: false, firewall: true } }],
  ['iPhone', 'ios', { agentVersion: '2.4.0', posture: { screenLock: true, osUpToDate: true } }],
  ['phone', 'android', { agentVersion: '2.2.5', posture: { screenLock: true, osUpToDate: false } }],
  ['laptop', 'windows', null],
];

/**
 * A customer's demo devices, through the enrolment services the API and the client use: six users enrolled by
 * link (three connected), one by an agentless browser link, three links still pending, and the "Intune
 * roll-out" deployment key that enrolled two more users' laptops and added them to "Remote workers".
 */
export async function seedDevices(database: Database, ctx: Ctx): Promise<void> {
  // No mail is sent: the seed never asks for it.
  const deps: enrolment.EnrolmentDeps = {
    database,
    config: { publicUrl: '' },
    mailer: createMailer(database, null),
  };
  const page = await enrolment.listUserDevices(deps, ctx, {
    limit: 13,
    offset: 0,
    order: 'asc',
    filter: 'all',
    method: 'any',
  });
  const users = page.items;
  const enrolWithLink = async (userIndex: number, kind: 'link' | 'agentless', name: string, os: DeviceOs) => {
    const user = users[userIndex];
    if (!user) return null;
    const link = await enrolment.createUserLink(deps, ctx, user.id, {
      kind,
      ttlHours: 168,
      sendEmail: false,
    });
    return enrolment.enrol(
      deps,
      { token: link.token, device: { name: `${user.fullname} ${name}`, os } },
      null,
    );
  };
  // Each reports once through the client's check-in, so the list shows agent versions and posture.
  for (const [index, [name, os, report]] of DEMO_DEVICES.entries()) {
    const enrolled = await enrolWithLink(index, 'link', name, os);
    if (enrolled && report) {
      await devices.checkin(
        database,
        { tenantId: ctx.tenant.id, deviceId: enrolled.deviceId, ip: `198.51.100.${20 + index}` },
        DeviceCheckin.parse(report),
      );
    }
  }
  await enrolWithLink(6, 'agentless', 'browser', 'chrome');
  for (const user of users.slice(7, 10)) {
    await enrolment.createUserLink(deps, ctx, user.id, { kind: 'link', ttlHours: 168, sendEmail: false });
  }
  const remoteWorkers = await database.db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.tenantId, ctx.tenant.id), eq(groups.name, 'Remote workers')));
  const { token } = await enrolment.createDeploymentKey(deps, ctx, {
    name: 'Intune roll-out',
    autoGroupIds: remoteWorkers.map((group) => group.id),
    expiresInDays: 90,
    maxUses: 500,
  });
  for (const user of users.slice(11, 13)) {
    await enrolment.enrol(
      deps,
      { token, device: { name: `${user.fullname} laptop`, os: 'windows' }, username: user.username },
      null,
    );
  }
  // A headless box (os `none`) the roll-out enrolled without a user; it was disabled.
  const kiosk = await enrolment.enrol(deps, { token, device: { name: 'Lobby kiosk', os: 'none' } }, null);
  await devices.bulkDevices(deps, ctx, { action: 'disable', ids: [kiosk.deviceId] });
  // While the tenant required approval, one more device enrolled: it waits in the list.
  await devices.updateDeviceSettings(database, ctx, { requireApproval: true, keyExpiryDays: 90 });
  await enrolment.enrol(deps, { token, device: { name: 'Unknown Surface', os: 'windows' } }, null);
  await devices.updateDeviceSettings(database, ctx, { requireApproval: false, keyExpiryDays: 90 });
}
