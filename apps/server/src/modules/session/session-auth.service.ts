import { type Role, SESSION_DURATION_MS, type TenantKind } from '@palisade/contracts';
import type { Database } from '../../db/client';
import type { Actor } from '../../lib/context';
import { CREDENTIAL_TOUCH_MS, hashToken } from '../../lib/credentials';
import { permissionsOfUser } from '../roles/roles.service';
import * as repo from './session.repository';

/**
 * The actor behind a session id (`X-Auth-Token`), or null when the session is unknown, expired or its user
 * suspended. A session in use stays alive: its idle expiry moves on, at most once a minute. The access check
 * (plugins/auth.ts) gets this from app.ts.
 */
export async function sessionActor(database: Database, sessionId: string): Promise<Actor | null> {
  const idHash = hashToken(sessionId);
  const row = await repo.findSessionActor(database.db, idHash);
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > CREDENTIAL_TOUCH_MS) {
    await repo.touchSession(database.db, idHash, new Date(Date.now() + SESSION_DURATION_MS));
  }
  return {
    id: row.userId,
    username: row.username,
    role: row.role as Role,
    customRoleId: row.customRoleId,
    usertype: row.usertype,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    tenantKind: row.tenantKind as TenantKind,
    sessionHash: idHash,
    target: row.targetTenantId ? { tenantId: row.targetTenantId, edit: row.targetEdit === true } : null,
    // A custom role's permissions are read on every call, so a changed role applies at once.
    ...(row.role === 'custom' ? { permissions: await permissionsOfUser(database.db, row) } : {}),
  };
}
