import {
  type ConnectionEvent,
  type DeviceEvent,
  deviceEndpoints,
  gatewayEndpoints,
  telemetryEndpoints,
  userEndpoints,
} from '@palisade/contracts';
import {
  apiError,
  type FakeAnswer,
  type FakeApi,
  fakeApi,
  fileResponse,
  keysetPage,
} from '../../../testing/fake-api';
import {
  DEVICES,
  GATEWAYS,
  LAPTOP_CONNECTED,
  LAPTOP_DISCONNECTED,
  LAPTOP_UPGRADED,
  PHONE_KEY_ROTATED,
  SITE_TUNNEL_UP,
  USERS,
} from './fixtures';

type ConnectionPage = FakeAnswer<typeof telemetryEndpoints.listConnectionEvents>;
type DevicePage = FakeAnswer<typeof telemetryEndpoints.listDeviceEvents>;

/** The filters both lists take, as the server sees them. */
interface EventFilterQuery {
  from?: string;
  to?: string;
  userId?: string;
  deviceId?: string;
  gatewayId?: string;
  action?: string;
}

/** Whether an event passes the filters, as the server decides. */
function matches(event: ConnectionEvent | DeviceEvent, query: EventFilterQuery): boolean {
  return (
    (!query.from || event.at >= query.from) &&
    (!query.to || event.at <= query.to) &&
    (!query.userId || event.user?.id === query.userId) &&
    (!query.deviceId || event.device?.id === query.deviceId) &&
    (!query.gatewayId || event.gateway?.id === query.gatewayId) &&
    (!query.action || event.action === query.action)
  );
}

/** Options of {@link fakeTelemetryApi}: what the tenant's gateways reported, or answers of the test's own. */
export interface FakeTelemetryOptions {
  connections?: ConnectionEvent[];
  deviceEvents?: DeviceEvent[];
  /** Answers the connection list instead of filtering `connections`. */
  connectionList?: (query: URLSearchParams) => ConnectionPage;
  deviceList?: (query: URLSearchParams) => DevicePage;
}

/**
 * The fake API of the event screens: both lists (filtered as the server filters them, in one page), their CSV
 * exports, and the user, device and gateway lists the filters choose from (searched by name), with a user and a
 * gateway by id.
 */
export function fakeTelemetryApi({
  connections = [LAPTOP_DISCONNECTED, SITE_TUNNEL_UP, LAPTOP_CONNECTED],
  deviceEvents = [LAPTOP_UPGRADED, PHONE_KEY_ROTATED],
  connectionList,
  deviceList,
}: FakeTelemetryOptions = {}): FakeApi {
  const search = (q: string | undefined, ...names: string[]) =>
    !q || names.some((name) => name.toLowerCase().includes(q.toLowerCase()));
  return (
    fakeApi()
      .on(telemetryEndpoints.listConnectionEvents, ({ query, url }) =>
        connectionList
          ? connectionList(url.searchParams)
          : keysetPage(connections.filter((event) => matches(event, query))),
      )
      .on(telemetryEndpoints.listDeviceEvents, ({ query, url }) =>
        deviceList
          ? deviceList(url.searchParams)
          : keysetPage(deviceEvents.filter((event) => matches(event, query))),
      )
      .on(telemetryEndpoints.exportConnectionEvents, () =>
        fileResponse('at,action\r\n', 'connection-events-acme.csv'),
      )
      .on(telemetryEndpoints.exportDeviceEvents, () =>
        fileResponse('at,action\r\n', 'device-events-acme.csv'),
      )
      .on(userEndpoints.listUsers, ({ query }) =>
        keysetPage(USERS.filter((user) => search(query.q, user.fullname, user.username))),
      )
      .on(deviceEndpoints.listDevices, ({ query }) =>
        keysetPage(DEVICES.filter((device) => search(query.q, device.name))),
      )
      .on(gatewayEndpoints.listGateways, ({ query }) =>
        keysetPage(GATEWAYS.filter((gateway) => search(query.q, gateway.name))),
      )
      // A picked id the rows do not name (a shared link to an empty result) is looked up.
      .on(
        userEndpoints.getUser,
        ({ params }) => USERS.find((user) => user.id === params.id) ?? apiError('not_found'),
      )
      .on(
        gatewayEndpoints.getGateway,
        ({ params }) => GATEWAYS.find((gateway) => gateway.id === params.id) ?? apiError('not_found'),
      )
  );
}
