import { z } from 'zod';
import { IdList, NonEmpty, Page, PageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
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

export const GROUP_SORTS = ['name', 'memberCount', 'createdAt'] as const;
/** `q` searches the name and the description. */
export const GroupListQuery = PageQuery.extend({ sort: z.enum(GROUP_SORTS).default('name') });
export type GroupListQuery = z.infer<typeof GroupListQuery>;

/** Members are end users, ordered by username; `q` searches username, names and e-mail. */
export const GroupMembersQuery = PageQuery;
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
    response: Page(Group),
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
    response: Page(GroupMember),
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
};
