import { z } from 'zod';
import { endpoint } from './endpoint';

/** Settings the web needs before anyone signs in. */
export const PublicConfig = z.object({
  signOutPartners: z.array(z.string()),
  posthogKey: z.string().nullable(),
  posthogHost: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

export const OutboxMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxMail = z.infer<typeof OutboxMail>;

export const systemEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    access: 'public',
    summary: 'Ready check',
    tags: ['system'],
    response: z.object({ status: z.literal('ok') }),
  }),
  publicConfig: endpoint({
    method: 'GET',
    path: '/config',
    access: 'public',
    summary: 'Public client settings',
    tags: ['system'],
    response: PublicConfig,
  }),
  outbox: endpoint({
    method: 'GET',
    path: '/dev/outbox',
    access: 'public',
    summary: 'Mail sent without SMTP (not in production)',
    tags: ['system'],
    query: z.object({ to: z.string().optional() }),
    response: z.array(OutboxMail),
  }),
};
