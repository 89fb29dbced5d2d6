import { z } from 'zod';
import { Email, IdList, KeysetPage, KeysetPageQuery, NonEmpty, Uuid } from './common';
import { endpoint } from './endpoint';
import { TenantParams } from './tenants';

/** Connection status shown as text (spec §4). */
export const CONN_STATUSES = ['connected', 'disconnected', 'never'] as const;
export const ConnStatus = z.enum(CONN_STATUSES);

/** SUCI: `suci-<type>-<mcc>-<mnc>-<routing>-<scheme>-<keyid>-<output>` (3GPP TS 23.003). */
export const Suci = z
  .string()
  .trim()
  .regex(/^suci-0-\d{3}-\d{2,3}-\d{1,4}-\d{1,2}-\d{1,3}-[0-9a-fA-F]{1,200}$/, { message: 'validation.suci' });

/** An end user (spec §3 User). Only usertype 0 is listed as a user. */
export const User = z.object({
  id: z.string(),
  userid: z.string(),
  username: z.string(),
  shortname: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  fullname: z.string(),
  email: z.string(),
  groups: z.array(z.string()),
  connstatus: ConnStatus,
  isprvaccess: z.boolean(),
  issiauser: z.boolean(),
  isxdrenabled: z.boolean(),
  suci: z.string().nullable(),
  imsi: z.string().nullable(),
  usertype: z.number().int(),
  tenant: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

export const USER_SORTS = ['username', 'fullname', 'email', 'connstatus', 'createdAt'] as const;
export const UserListQuery = KeysetPageQuery.extend({ sort: z.enum(USER_SORTS).default('username') });
export type UserListQuery = z.infer<typeof UserListQuery>;

export const UserInput = z.object({
  username: Email,
  firstname: NonEmpty(100),
  lastname: NonEmpty(100),
  email: Email.optional(),
  groups: z.array(Uuid).max(500).default([]),
  isprvaccess: z.boolean().default(false),
  issiauser: z.boolean().default(false),
  isxdrenabled: z.boolean().default(false),
  suci: Suci.nullable().optional(),
});
export type UserInput = z.input<typeof UserInput>;
export const UserUpdate = UserInput.partial();
export type UserUpdate = z.input<typeof UserUpdate>;

const UserParams = TenantParams.extend({ id: Uuid });

export const GroupOption = z.object({ id: z.string(), name: z.string() });
export type GroupOption = z.infer<typeof GroupOption>;

export const userEndpoints = {
  listUsers: endpoint({
    method: 'GET',
    path: '/subscriber/user/:tenant',
    access: 'users:view',
    summary: 'List end users (usertype 0)',
    tags: ['users'],
    params: TenantParams,
    query: UserListQuery,
    response: KeysetPage(User),
  }),
  getUser: endpoint({
    method: 'GET',
    path: '/subscriber/user/:tenant/:id',
    access: 'users:view',
    summary: 'One end user',
    tags: ['users'],
    params: UserParams,
    response: User,
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/subscriber/user/:tenant',
    access: 'users:create',
    summary: 'Create an end user',
    tags: ['users'],
    params: TenantParams,
    body: UserInput,
    response: User,
    status: 201,
  }),
  updateUser: endpoint({
    method: 'PUT',
    path: '/subscriber/user/:tenant/:id',
    access: 'users:update',
    summary: 'Update an end user',
    tags: ['users'],
    params: UserParams,
    body: UserUpdate,
    response: User,
  }),
  deleteUsers: endpoint({
    method: 'DELETE',
    path: '/subscriber/user/:tenant',
    access: 'users:delete',
    summary: 'Delete end users by a list of ids',
    tags: ['users'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  listGroupOptions: endpoint({
    method: 'GET',
    path: '/groups/:tenant/options',
    access: 'groups:view',
    summary: "The tenant's groups as {id, name}, for pickers",
    tags: ['groups'],
    params: TenantParams,
    response: z.array(GroupOption),
  }),
};
