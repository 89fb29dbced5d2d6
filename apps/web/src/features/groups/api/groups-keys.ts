import type { GroupListQuery, GroupMembersQuery } from '@palisade/contracts';

/** List query as the screen sends it: every field of the contract's query may be left to its default. */
export type GroupsListParams = Partial<GroupListQuery>;
/** Members query as the screen sends it. */
export type GroupMembersParams = Partial<GroupMembersQuery>;

/**
 * Query keys of the groups area, all under `['tenant', tenant, 'groups']`: one invalidation refreshes the
 * lists, details, members and the users area's group look-up (`['tenant', tenant, 'groups', 'options']`).
 * A group's members and usage sit under its detail key, so refreshing a group refreshes them too.
 */
export const groupsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'groups'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'groups', 'list'] as const,
  list: (tenant: string, query: GroupsListParams) => ['tenant', tenant, 'groups', 'list', query] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'groups', 'detail', id] as const,
  memberLists: (tenant: string, id: string) => ['tenant', tenant, 'groups', 'detail', id, 'members'] as const,
  members: (tenant: string, id: string, query: GroupMembersParams) =>
    ['tenant', tenant, 'groups', 'detail', id, 'members', query] as const,
  usage: (tenant: string, id: string) => ['tenant', tenant, 'groups', 'detail', id, 'usage'] as const,
  userSearch: (tenant: string, q: string) => ['tenant', tenant, 'groups', 'user-search', q] as const,
  /** A CSV import's job, polled while it runs. */
  importJob: (tenant: string, id: string) => ['tenant', tenant, 'groups', 'import', id] as const,
  /** The users area: a user's `groups` change when memberships do. */
  users: (tenant: string) => ['tenant', tenant, 'users'] as const,
};
