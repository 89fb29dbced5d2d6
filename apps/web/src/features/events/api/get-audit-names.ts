import { policyObjectEndpoints, userEndpoints } from '@palisade/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import type { AuditNames, NameKind } from '../utils/audit-values';
import { eventsKeys } from './events-keys';

/** Object names change rarely while the log is read. */
const NAMES_STALE_MS = 5 * 60_000;

/** A look-up the reader may not be allowed (or that fails) leaves the ids as they are: no toast, no retry. */
const quiet = { staleTime: NAMES_STALE_MS, retry: false, meta: { isSilent: true } } as const;

const byId = <T>(items: T[] | undefined, id: (item: T) => string, name: (item: T) => string) => {
  const map = new Map((items ?? []).map((item) => [id(item), name(item)]));
  return (key: string) => map.get(key);
};

/**
 * Names for the ids an event's values refer to, looked up when the event is read: the tenant's groups,
 * applications, web categories, feeds and locations (each list once, only when the event refers to that kind),
 * and single users by id. Users and groups of newer events are named when the event is written; these look-ups
 * name the policy objects (whose shipped names are translated, so they are not frozen into the log) and older
 * events.
 */
export function useAuditNames(tenant: string, kinds: ReadonlySet<NameKind>, userIds: readonly string[]) {
  const groups = useQuery({
    queryKey: eventsKeys.names(tenant, 'group'),
    queryFn: ({ signal }) => request(userEndpoints.listGroupOptions, { params: { tenant }, signal }),
    enabled: kinds.has('group'),
    ...quiet,
  });
  const apps = useQuery({
    queryKey: eventsKeys.names(tenant, 'app'),
    queryFn: ({ signal }) =>
      request(policyObjectEndpoints.listApps, { params: { tenant }, query: {}, signal }),
    enabled: kinds.has('app'),
    ...quiet,
  });
  const categories = useQuery({
    queryKey: eventsKeys.names(tenant, 'category'),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listCategories, { params: { tenant }, signal }),
    enabled: kinds.has('category'),
    ...quiet,
  });
  const feeds = useQuery({
    queryKey: eventsKeys.names(tenant, 'feed'),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listFeeds, { params: { tenant }, signal }),
    enabled: kinds.has('feed'),
    ...quiet,
  });
  const locations = useQuery({
    queryKey: eventsKeys.names(tenant, 'location'),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listLocations, { params: { tenant }, signal }),
    enabled: kinds.has('location'),
    ...quiet,
  });
  const users = useQueries({
    queries: (kinds.has('user') ? userIds : []).map((id) => ({
      queryKey: eventsKeys.names(tenant, 'user', id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        request(userEndpoints.getUser, { params: { tenant, id }, signal }),
      ...quiet,
    })),
  });

  const userNames = new Map(users.flatMap((q) => (q.data ? [[q.data.id, q.data.username] as const] : [])));
  const names: AuditNames = {
    group: byId(
      groups.data,
      (g) => g.id,
      (g) => g.name,
    ),
    app: byId(
      apps.data,
      (a) => a.appid,
      (a) => a.appname,
    ),
    category: byId(
      categories.data,
      (c) => c.id,
      (c) => c.name,
    ),
    feed: byId(
      feeds.data,
      (f) => f.id,
      (f) => f.name,
    ),
    location: byId(
      locations.data,
      (l) => l.id,
      (l) => l.name,
    ),
    user: (id) => userNames.get(id),
  };
  return names;
}
