import {
  API_TOKEN_PATTERN,
  type Permission,
  type Role,
  readOnlyPermissions,
  type TenantKind,
} from '@palisade/contracts';
import type { Database } from '../../db/client';
import type { Actor } from '../../lib/context';
import { CREDENTIAL_TOUCH_MS, hashToken } from '../../lib/credentials';
import { permissionsOfUser } from '../roles/roles.service';
import * as repo from './tokens.repository';

/**
 * The actor behind an API token's secret (`Authorization: Bearer pal_…`), or null — which the access check
 * answers with 401 like a dead session — when the token is unknown, revoked or expired, or its owner is
 * suspended (a removed owner's tokens are deleted with it). Its permissions are what it was given, never more
 * than its owner's role holds now (a demoted owner's tokens shrink with it), and only `:view` ones when it is
 * read-only. The access check (plugins/auth.ts) gets this from app.ts.
 */
export async function tokenActor(
  database: Database,
  secret: string,
  ip: string | null,
): Promise<Actor | null> {
  if (!API_TOKEN_PATTERN.test(secret)) return null;
  const tokenHash = hashToken(secret);
  const row = await repo.findTokenForAuth(database.db, tokenHash);
  const now = Date.now();
  if (
    !row ||
    row.revokedAt ||
    (row.expiresAt && row.expiresAt.getTime() <= now) ||
    row.usertype === 0 ||
    row.isSuspended ||
    row.tenantSuspendedAt
  ) {
    return null;
  }
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > CREDENTIAL_TOUCH_MS) {
    await repo.touchToken(database.db, tokenHash, ip, CREDENTIAL_TOUCH_MS);
  }
  const held = await permissionsOfUser(database.db, row);
  const granted = (row.permissions as Permission[]).filter((permission) => held.includes(permission));
  return {
    id: row.userId,
    // What the event log shows as the actor of the token's writes.
    username: `${row.username} (token: ${row.name})`,
    role: row.role as Role,
    customRoleId: row.customRoleId,
    usertype: row.usertype,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    tenantKind: row.tenantKind as TenantKind,
    sessionHash: tokenHash,
    permissions: row.isReadOnly ? readOnlyPermissions(granted) : granted,
    tokenId: row.tokenId,
  };
}
