import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Fixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';

/** Shared pieces of the policy-object route tests (imported by tests only). */
export const auth = (token: string) => ({ 'x-auth-token': token });
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export interface Tokens {
  owner: string;
  /** View-only on everything. */
  auditor: string;
  /** No policies permission at all. */
  helpdesk: string;
  globexOwner: string;
}

export async function signInAll(f: Fixture): Promise<Tokens> {
  return {
    owner: await f.signIn('admin@acme.test'),
    auditor: await f.signIn('auditor@acme.test'),
    helpdesk: await f.signIn('helpdesk@acme.test'),
    globexOwner: await f.signIn('admin@globex.test'),
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The guards every route has: no session → 401, a role without the permission → 403, another tenant's path
 * → 404 (before the permission check, so even a forbidden role learns nothing about that tenant).
 */
export async function expectGuards(
  f: Fixture,
  t: Tokens,
  request: { method: Method; url: string; payload?: unknown; forbidden: 'auditor' | 'helpdesk' },
) {
  const { method, url, payload } = request;
  const anonymous = await f.app.inject({ method, url, payload: payload as object });
  expect(anonymous.statusCode).toBe(401);
  expect(anonymous.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
  const forbidden = await f.app.inject({
    method,
    url,
    payload: payload as object,
    headers: auth(t[request.forbidden]),
  });
  expect(forbidden.statusCode).toBe(403);
  expect(forbidden.json().code).toBe('forbidden');
  const otherTenant = await f.app.inject({
    method,
    url: url.replace('/acme', '/globex'),
    payload: payload as object,
    headers: auth(t.owner),
  });
  expect(otherTenant.statusCode).toBe(404);
}

/** The events of acme with this action. */
export function eventsOf(f: Fixture, action: string) {
  return f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, action)));
}

/** The paths of a 400 answer's details. */
export function detailPaths(body: { details?: { path: string }[] }): string[] {
  return (body.details ?? []).map((d) => d.path);
}
