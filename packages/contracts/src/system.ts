import { z } from 'zod';
import { endpoint } from './endpoint';

/** Settings the web needs before anyone signs in. */
export const PublicConfig = z.object({
  signOutPartners: z.array(z.string()),
  posthogKey: z.string().nullable(),
  posthogHost: z.string().nullable(),
  /**
   * `DASHBOARD_BASE_URL`: the host embedded-dashboard links point to (spec §2), or null for this server (the web
   * then uses its own origin).
   */
  dashboardBaseUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/**
 * `GET /health`: each dependency, and overall `ok`, `degraded` (Redis is down: rate limits count per instance)
 * or `down` (no database: answered with 503, so a load balancer takes the instance out).
 */
export const Health = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  database: z.enum(['ok', 'down']),
  /** `none` when no REDIS_URL is configured. */
  redis: z.enum(['ok', 'down', 'none']),
});
export type Health = z.infer<typeof Health>;

export const OutboxMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** The files the mail carries (a scheduled report's PDF), without their content. */
  attachments: z
    .array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() }))
    .default([]),
  createdAt: z.string(),
});
export type OutboxMail = z.infer<typeof OutboxMail>;

export const systemEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    access: 'public',
    summary: 'Readiness: the database and Redis (503 without the database)',
    tags: ['system'],
    response: Health,
  }),
  healthLive: endpoint({
    method: 'GET',
    path: '/health/live',
    access: 'public',
    summary: 'Liveness: the process answers (no dependency is checked)',
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
  /** Registered only with DEV_OUTBOX=true (and not in production); answered to platform administrators only. */
  outbox: endpoint({
    method: 'GET',
    path: '/dev/outbox',
    access: 'session',
    summary: 'Mail kept without SMTP (DEV_OUTBOX=true; platform administrators only)',
    tags: ['system'],
    query: z.object({ to: z.string().optional() }),
    response: z.array(OutboxMail),
  }),
};
