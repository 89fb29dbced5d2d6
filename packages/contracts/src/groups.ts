import { z } from 'zod';
import { IdList, KeysetPage, KeysetPageQuery, NonEmpty, Uuid } from './common';
import { endpoint } from './endpoint';
import { ImportJob, ImportQuery } from './imports';
import { TenantParams } from './tenants';
import { ConnStatus } from './users';

/** A group of end users (spec §3 Group), with its member count. Users belong to many groups. */
export const Group = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  memberCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Group = z.infer<typeof Group>;

/** Longest group name and description. */
export const GROUP_NAME_MAX = 100;
export const GROUP_DESCRIPTION_MAX = 500;

const GroupDescription = z.string().trim().max(GROUP_DESCRIPTION_MAX, { message: 'validation.tooLong' });

/** A new group. Names are unique per tenant, ignoring case. */
export const GroupInput = z.object({
  name: NonEmpty(GROUP_NAME_MAX),
  description: GroupDescription.default(''),
});
export type GroupInput = z.input<typeof GroupInput>;

/** A change to a group: only the fields given change. */
export const GroupUpdate = z.object({
  name: NonEmpty(GROUP_NAME_MAX).optional(),
  description: GroupDescription.optional(),
});
export type GroupUpdate = z.input<typeof GroupUpdate>;

/**
 * A copy of a group: a new group named `name` (unique like any group's), with the source's description unless
 * one is given, and — with `withMembers` — the source's members, all in one transaction.
 */
export const GroupCopyInput = z.object({
  name: NonEmpty(GROUP_NAME_MAX),
  description: GroupDescription.optional(),
  withMembers: z.boolean(),
});
export type GroupCopyInput = z.input<typeof GroupCopyInput>;

export const GROUP_SORTS = ['name', 'memberCount', 'createdAt'] as const;
/** `q` searches the name and the description. */
export const GroupListQuery = KeysetPageQuery.extend({ sort: z.enum(GROUP_SORTS).default('name') });
export type GroupListQuery = z.infer<typeof GroupListQuery>;

/** Members are end users, ordered by username; `q` searches username, names and e-mail. */
export const GroupMembersQuery = KeysetPageQuery;
export type GroupMembersQuery = z.infer<typeof GroupMembersQuery>;

/** One member of a group, as the members table shows it. */
export const GroupMember = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  connstatus: ConnStatus,
});
export type GroupMember = z.infer<typeof GroupMember>;

/** End users to add to or remove from a group. */
export const GroupMemberIds = z.object({
  userIds: z.array(Uuid).min(1, { message: 'validation.required' }).max(10_000),
});
export type GroupMemberIds = z.infer<typeof GroupMemberIds>;

/** Something that refers to a group (a policy, once policies exist), so deleting it would leave a gap. */
export const GroupReference = z.object({ type: z.string(), id: z.string(), name: z.string() });
export type GroupReference = z.infer<typeof GroupReference>;

/** Where a group is used: how many members lose it, and which objects refer to it. */
export const GroupUsage = z.object({ members: z.number().int(), references: z.array(GroupReference) });
export type GroupUsage = z.infer<typeof GroupUsage>;

/** What the CSV export covers: the list's search and order, every page. */
export const GroupExportQuery = z.object({
  q: z.string().trim().max(200).optional(),
  sort: z.enum(GROUP_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type GroupExportQuery = z.infer<typeof GroupExportQuery>;

/**
 * Columns of the groups CSV, in order; import reads the same header. `members` holds the usernames of end
 * users of the tenant, separated by `;`. On import `name` is required; a row whose name exists (ignoring case)
 * sets that group's description (an empty cell keeps it) and adds the listed members (members are never
 * removed); any other row creates a group.
 */
export const GROUP_CSV_COLUMNS = ['name', 'description', 'members'] as const;

/** The separator of usernames in the `members` cell. */
export const GROUP_CSV_MEMBER_SEPARATOR = ';';

/** What the members CSV export covers: the members table's search and order, every page. */
export const GroupMembersExportQuery = z.object({
  q: z.string().trim().max(200).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type GroupMembersExportQuery = z.infer<typeof GroupMembersExportQuery>;

/** Columns of the group members CSV, in order. */
export const GROUP_MEMBER_CSV_COLUMNS = ['username', 'fullname', 'connstatus'] as const;

const GroupParams = TenantParams.extend({ id: Uuid });

export const groupEndpoints = {
  listGroups: endpoint({
    method: 'GET',
    path: '/groups/:tenant',
    access: 'groups:view',
    summary: "A page of the tenant's groups with member counts",
    tags: ['groups'],
    params: TenantParams,
    query: GroupListQuery,
    response: KeysetPage(Group),
  }),
  getGroup: endpoint({
    method: 'GET',
    path: '/groups/:tenant/:id',
    access: 'groups:view',
    summary: 'One group',
    tags: ['groups'],
    params: GroupParams,
    response: Group,
  }),
  createGroup: endpoint({
    method: 'POST',
    path: '/groups/:tenant',
    access: 'groups:create',
    summary: 'Create a group',
    tags: ['groups'],
    params: TenantParams,
    body: GroupInput,
    response: Group,
    status: 201,
  }),
  copyGroup: endpoint({
    method: 'POST',
    path: '/groups/:tenant/:id/copy',
    access: 'groups:create',
    configFlag: 'copyAllowed',
    summary: 'Copy a group, with its members when asked (adding members needs groups:update too)',
    tags: ['groups'],
    params: GroupParams,
    body: GroupCopyInput,
    response: Group,
    status: 201,
  }),
  updateGroup: endpoint({
    method: 'PUT',
    path: '/groups/:tenant/:id',
    access: 'groups:update',
    summary: "Change a group's name or description",
    tags: ['groups'],
    params: GroupParams,
    body: GroupUpdate,
    response: Group,
  }),
  deleteGroups: endpoint({
    method: 'DELETE',
    path: '/groups/:tenant',
    access: 'groups:delete',
    summary: 'Delete groups by a list of ids; their memberships go with them',
    tags: ['groups'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  listGroupMembers: endpoint({
    method: 'GET',
    path: '/groups/:tenant/:id/members',
    access: 'groups:view',
    summary: 'A page of the end users in a group',
    tags: ['groups'],
    params: GroupParams,
    query: GroupMembersQuery,
    response: KeysetPage(GroupMember),
  }),
  exportGroupMembers: endpoint({
    method: 'GET',
    path: '/groups/:tenant/:id/members/export',
    access: 'groups:view',
    summary: 'Every member of a group matching a search, as CSV (username,fullname,connstatus)',
    tags: ['groups'],
    params: GroupParams,
    query: GroupMembersExportQuery,
    response: z.string(),
  }),
  addGroupMembers: endpoint({
    method: 'POST',
    path: '/groups/:tenant/:id/members',
    access: 'groups:update',
    summary: 'Add end users to a group (members already in it are left as they are)',
    tags: ['groups'],
    params: GroupParams,
    body: GroupMemberIds,
    response: z.object({ added: z.number().int() }),
  }),
  removeGroupMembers: endpoint({
    method: 'DELETE',
    path: '/groups/:tenant/:id/members',
    access: 'groups:update',
    summary: 'Remove end users from a group',
    tags: ['groups'],
    params: GroupParams,
    body: GroupMemberIds,
    response: z.object({ removed: z.number().int() }),
  }),
  getGroupUsage: endpoint({
    method: 'GET',
    path: '/groups/:tenant/:id/usage',
    access: 'groups:view',
    summary: 'Where a group is used: its members and the objects that refer to it',
    tags: ['groups'],
    params: GroupParams,
    response: GroupUsage,
  }),
  exportGroups: endpoint({
    method: 'GET',
    path: '/groups/:tenant/export',
    access: 'groups:view',
    summary: 'All groups matching a search with their members, as CSV (name,description,members)',
    tags: ['groups'],
    params: TenantParams,
    query: GroupExportQuery,
    response: z.string(),
  }),
  importGroups: endpoint({
    method: 'POST',
    path: '/groups/:tenant/import',
    access: 'groups:create',
    summary: 'Create or update groups and add members from CSV (text/csv body); answers the job to poll',
    tags: ['groups'],
    params: TenantParams,
    query: ImportQuery,
    response: ImportJob,
    status: 202,
  }),
  groupImportJob: endpoint({
    method: 'GET',
    path: '/groups/:tenant/import/:id',
    access: 'groups:create',
    summary: 'Progress and row errors of a groups import',
    tags: ['groups'],
    params: GroupParams,
    response: ImportJob,
  }),
};
