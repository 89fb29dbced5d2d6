import type { AuditAction, AuditObjectType } from '@palisade/contracts';
import type { Tx } from '../db/client';
import { adminEvents } from '../db/schema';
import type { Ctx } from './context';

const SECRET_KEYS = /password|secret|token|hash|otp|key/i;

/** A value that cannot hold a secret: a count (`revokedTokens: 2`) or a flag (`isTotpEnabled`) stays readable. */
const isHarmless = (value: unknown) =>
  value === null || typeof value === 'number' || typeof value === 'boolean';

/** Drops anything that looks like a secret before it is written to the log. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_KEYS.test(k) && !isHarmless(v) ? '[redacted]' : redact(v),
      ]),
    );
  }
  return value;
}

/** One write to record. `action` and `objectType` are the contracts' constants, so each has a label. */
export interface EventInput {
  action: AuditAction;
  objectType: AuditObjectType;
  objectId?: string | null;
  objectName?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Records a write in the admin event log, inside the caller's transaction. Every module writes the log through
 * this one function (lib, so no module imports the events module); the events module only reads it.
 */
export async function recordEvent(
  tx: Tx,
  /** A null actor is the system; an actor without an id names a non-person (`enrolment` for a device). */
  ctx: Pick<Ctx, 'ip'> & {
    tenant: { id: string };
    actor: { id: string | null; username: string; tenantId?: string; tenantName?: string } | null;
  },
  event: EventInput,
) {
  // A partner (or the platform) acting in a tenant it manages is recorded as such.
  const from = ctx.actor?.tenantId && ctx.actor.tenantId !== ctx.tenant.id ? ctx.actor.tenantName : null;
  await tx.insert(adminEvents).values({
    tenantId: ctx.tenant.id,
    actorId: ctx.actor?.id ?? null,
    actorName: ctx.actor?.username ?? 'system',
    actingFrom: from ?? null,
    ip: ctx.ip,
    action: event.action,
    objectType: event.objectType,
    objectId: event.objectId ?? null,
    objectName: event.objectName ?? null,
    before: event.before === undefined ? null : redact(event.before),
    after: event.after === undefined ? null : redact(event.after),
  });
}
