import { deviceEndpoints, gatewayEndpoints, userEndpoints } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { telemetryKeys } from './telemetry-keys';

/** How many choices a filter offers for one search. */
export const OPTIONS_LIMIT = 20;

/** One choice of the user, device or gateway filter. */
export interface FilterOption {
  value: string;
  label: string;
}

/** The entities the events can be narrowed to. */
export type FilterEntity = 'users' | 'devices' | 'gateways';

/** A user as a choice: the full name with the username, or the username. */
const userLabel = (user: { fullname: string; username: string }) =>
  user.fullname ? `${user.fullname} (${user.username})` : user.username;

/** The first choices matching `q` (name or username), from the list endpoint the entity's own screen uses. */
function searchOptions(
  tenant: string,
  entity: FilterEntity,
  q: string,
  signal: AbortSignal,
): Promise<FilterOption[]> {
  const page = { limit: OPTIONS_LIMIT, ...(q ? { q } : {}) };
  switch (entity) {
    case 'users':
      return request(userEndpoints.listUsers, {
        params: { tenant },
        query: { ...page, withTotal: 'false' },
        signal,
      }).then(({ items }) => items.map((user) => ({ value: user.id, label: userLabel(user) })));
    case 'devices':
      return request(deviceEndpoints.listDevices, {
        params: { tenant },
        query: { ...page, withTotal: 'false' },
        signal,
      }).then(({ items }) => items.map((device) => ({ value: device.id, label: device.name })));
    case 'gateways':
      return request(gatewayEndpoints.listGateways, {
        params: { tenant },
        query: { ...page, withTotal: 'false' },
        signal,
      }).then(({ items }) => items.map((gateway) => ({ value: gateway.id, label: gateway.name })));
  }
}

/** One picked entity's name, for an id that came with the address. */
function lookUpOption(tenant: string, entity: FilterEntity, id: string, signal: AbortSignal) {
  const params = { tenant, id };
  switch (entity) {
    case 'users':
      return request(userEndpoints.getUser, { params, signal, silent: true }).then(userLabel);
    case 'devices':
      return request(deviceEndpoints.getDeviceDetail, { params, signal, silent: true }).then((d) => d.name);
    case 'gateways':
      return request(gatewayEndpoints.getGateway, { params, signal, silent: true }).then((g) => g.name);
  }
}

/** Choices of one filter matching `q`; fetched while `isEnabled` (the dropdown was opened, or a search typed). */
export function useFilterOptions(tenant: string, entity: FilterEntity, q: string, isEnabled: boolean) {
  return useQuery({
    queryKey: telemetryKeys.options(tenant, entity, q),
    queryFn: ({ signal }) => searchOptions(tenant, entity, q, signal),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { isSilent: true },
  });
}

/**
 * The name of a picked entity the screen does not know yet (an id from a link); not asked for while `id` is null.
 * A failed look-up (deleted since, or not the reader's to see) leaves the id shown as it is: no toast, no retry.
 */
export function useFilterOption(tenant: string, entity: FilterEntity, id: string | null) {
  return useQuery({
    queryKey: telemetryKeys.option(tenant, entity, id ?? ''),
    queryFn: ({ signal }) => lookUpOption(tenant, entity, id ?? '', signal),
    enabled: id !== null,
    staleTime: 5 * 60_000,
    retry: false,
    meta: { isSilent: true },
  });
}
