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
  /** A disabled user cannot sign in or connect a device. */
  status: z.enum(['active', 'disabled']),
  /** Why the account was last disabled or enabled, by whom and when (null until it first changed). */
  statusReason: z.string().nullable(),
  statusChangedBy: z.string().nullable(),
  statusChangedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
/** The reason a disable needs: what the next administrator reading the user will want to know. */
export const MAX_STATUS_REASON = 300;

/** Disables (with a reason) or enables an end user's account. */
export const UserStatusInput = z
  .object({
    status: z.enum(USER_STATUSES),
    reason: z.string().trim().max(MAX_STATUS_REASON, { message: 'validation.tooLong' }).default(''),
  })
  .refine((value) => value.status === 'active' || value.reason !== '', {
    message: 'validation.required',
    path: ['reason'],
  });
export type UserStatusInput = z.input<typeof UserStatusInput>;

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
  setUserStatus: endpoint({
    method: 'PUT',
    path: '/subscriber/user/:tenant/:id/status',
    access: 'users:update',
    summary: "Disable (with a reason) or enable an end user's account",
    tags: ['users'],
    params: UserParams,
    body: UserStatusInput,
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
