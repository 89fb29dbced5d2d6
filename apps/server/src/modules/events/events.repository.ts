import { desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { adminEvents } from '../../db/schema';
import type { Ctx } from '../../lib/context';

const SECRET_KEYS = /password|secret|token|hash|otp|key/i;

/** Drops anything that looks like a secret before it is written to the log. */
function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redact(v)]),
    );
  }
  return value;
}

export interface EventInput {
  action: string;
  objectType: string;
  objectId?: string | null;
  objectName?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Records a write in the admin event log, inside the caller's transaction. */
export async function recordEvent(
  tx: Tx,
  ctx: Pick<Ctx, 'tenant' | 'ip'> & { actor: { id: string; username: string } | null },
  event: EventInput,
) {
  await tx.insert(adminEvents).values({
    tenantId: ctx.tenant.id,
    actorId: ctx.actor?.id ?? null,
    actorName: ctx.actor?.username ?? 'system',
    ip: ctx.ip,
    action: event.action,
    objectType: event.objectType,
    objectId: event.objectId ?? null,
    objectName: event.objectName ?? null,
    before: event.before === undefined ? null : redact(event.before),
    after: event.after === undefined ? null : redact(event.after),
  });
}

/** The newest events of a tenant. */
export async function recentEvents(tx: Tx, tenantId: string, limit: number) {
  return tx
    .select()
    .from(adminEvents)
    .where(eq(adminEvents.tenantId, tenantId))
    .orderBy(desc(adminEvents.at))
    .limit(limit);
}
