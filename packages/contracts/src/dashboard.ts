import { z } from 'zod';
import { endpoint } from './endpoint';
import { TenantParams } from './tenants';

/** One entry of the admin event log. */
export const AdminEvent = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  /** The partner's (or the platform's) tenant the actor acted from: "partner X acting in tenant Y". */
  actingFrom: z.string().nullable().optional(),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string().nullable(),
  objectName: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AdminEvent = z.infer<typeof AdminEvent>;

export const DashboardSummary = z.object({
  users: z.number().int(),
  connectedUsers: z.number().int(),
  privateAccessUsers: z.number().int(),
  internetAccessUsers: z.number().int(),
  xdrUsers: z.number().int(),
  administrators: z.number().int(),
  groups: z.number().int(),
  recentEvents: z.array(AdminEvent),
});
export type DashboardSummary = z.infer<typeof DashboardSummary>;

export const dashboardEndpoints = {
  summary: endpoint({
    method: 'GET',
    path: '/dashboard/:tenant/summary',
    access: 'dashboard:view',
    summary: 'Counts and recent admin events',
    tags: ['dashboard'],
    params: TenantParams,
    response: DashboardSummary,
  }),
};
