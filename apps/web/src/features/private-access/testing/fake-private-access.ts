import {
  enrolmentEndpoints,
  gatewayEndpoints,
  type PrivateService,
  privateAccessEndpoints,
  userEndpoints,
  type ZtnaRule,
} from '@palisade/contracts';
import { type FakeApi, fakeApi, keysetPage } from '../../../testing/fake-api';
import { ANN, BERLIN, BOB, GROUP_OPTIONS, MUNICH, OLD_SITE } from './fixtures';

const NEW_ID = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';

/** Names of the picked users and groups, as the server presents them. */
function audience(userIds: string[], groupIds: string[]) {
  return {
    users: [ANN, BOB]
      .filter((user) => userIds.includes(user.id))
      .map((u) => ({ id: u.id, name: u.username })),
    groups: GROUP_OPTIONS.filter((group) => groupIds.includes(group.id)),
  };
}

const gatewayName = (id: string) => [BERLIN, MUNICH, OLD_SITE].find((g) => g.id === id)?.name ?? '';

/**
 * The fake API of both screens: the form's look-ups (site gateways, a user search on name, the group options),
 * and the services and rules answered as the server would (a save answers the saved entry).
 */
export function fakePrivateAccessApi({
  services = [],
  rules = [],
}: {
  services?: PrivateService[];
  rules?: ZtnaRule[];
} = {}): FakeApi {
  return fakeApi()
    .on(gatewayEndpoints.listGateways, () => keysetPage([BERLIN, MUNICH, OLD_SITE]))
    .on(enrolmentEndpoints.listUserDevices, ({ query }) => {
      const wanted = (query.q ?? '').toLowerCase();
      const items = [ANN, BOB].filter((user) => user.fullname.toLowerCase().includes(wanted));
      return { items, total: items.length };
    })
    .on(userEndpoints.listGroupOptions, () => GROUP_OPTIONS)
    .on(privateAccessEndpoints.listPrivateServices, () => ({ items: services }))
    .on(privateAccessEndpoints.createPrivateService, ({ body }) => ({
      id: NEW_ID,
      ...body,
      gatewayName: gatewayName(body.gatewayId),
      ...audience(body.userIds, body.groupIds),
      updatedAt: '2026-03-02T10:00:00.000Z',
    }))
    .on(privateAccessEndpoints.updatePrivateService, ({ params, body }) => ({
      id: params.id,
      ...body,
      gatewayName: gatewayName(body.gatewayId),
      ...audience(body.userIds, body.groupIds),
      updatedAt: '2026-03-02T10:00:00.000Z',
    }))
    .on(privateAccessEndpoints.deletePrivateService, () => ({ ok: true as const }))
    .on(privateAccessEndpoints.listZtnaRules, () => ({ items: rules }))
    .on(privateAccessEndpoints.createZtnaRule, ({ body }) => ({
      id: NEW_ID,
      ...body,
      gatewayName: gatewayName(body.gatewayId),
      ...audience(body.userIds, body.groupIds),
      updatedAt: '2026-03-02T10:00:00.000Z',
    }))
    .on(privateAccessEndpoints.updateZtnaRule, ({ params, body }) => ({
      id: params.id,
      ...body,
      gatewayName: gatewayName(body.gatewayId),
      ...audience(body.userIds, body.groupIds),
      updatedAt: '2026-03-02T10:00:00.000Z',
    }))
    .on(privateAccessEndpoints.deleteZtnaRule, () => ({ ok: true as const }));
}
