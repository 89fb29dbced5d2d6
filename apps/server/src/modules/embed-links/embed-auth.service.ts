import {
  EMBED_TOKEN_PATTERN,
  type EmbedKind,
  embedPermissions,
  type Role,
  type TenantKind,
} from '@palisade/contracts';
import type { Database } from '../../db/client';
import type { Actor } from '../../lib/context';
import { CREDENTIAL_TOUCH_MS, hashToken } from '../../lib/credentials';
import { permissionsOfUser } from '../roles/roles.service';
import * as repo from './embed-links.repository';

/**
 * The actor behind an embed link's token (`Authorization: Bearer emb_…`), or null — which the access check
 * answers with 401 — when the link is unknown, revoked or expired, its tenant or its creator's is suspended or
 * being deleted, its creator is suspended or no longer reaches its tenant (a partner's customer moved away).
 * It reads with its dashboards' permissions, never more than its creator's role holds now (a demoted creator's
 * links shrink with it), in its own tenant only; the access check (plugins/auth.ts) keeps it to its dashboards'
 * read routes. app.ts hands this to the access check.
 */
export async function embedActor(
  database: Database,
  token: string,
  ip: string | null,
): Promise<Actor | null> {
  if (!EMBED_TOKEN_PATTERN.test(token)) return null;
  const tokenHash = hashToken(token);
  const row = await repo.findLinkForAuth(database.db, tokenHash);
  if (!row) return null;
  const { link } = row;
  const now = Date.now();
  if (
    link.revokedAt ||
    link.expiresAt.getTime() <= now ||
    row.tenantSuspendedAt ||
    row.tenantDeletionDueAt ||
    row.creatorIsSuspended ||
    row.creatorUsertype === 0 ||
    row.creatorTenantSuspendedAt ||
    row.creatorTenantDeletionDueAt
  ) {
    return null;
  }
  const reachesTenant =
    link.creatorTenantId === link.tenantId ||
    row.creatorRole === 'platform_admin' ||
    (row.creatorRole === 'partner_admin' && row.tenantParentId === link.creatorTenantId);
  if (!reachesTenant) return null;
  if (!link.lastUsedAt || now - link.lastUsedAt.getTime() > CREDENTIAL_TOUCH_MS) {
    await repo.touchLink(database.db, tokenHash, ip, CREDENTIAL_TOUCH_MS);
  }
  const held = await permissionsOfUser(database.db, {
    tenantId: link.creatorTenantId,
    role: row.creatorRole,
    customRoleId: row.creatorCustomRoleId,
  });
  const kinds = link.kinds as EmbedKind[];
  return {
    id: link.creatorId,
    // What a log line names as the actor.
    username: `${row.creatorUsername} (embed link: ${link.name})`,
    role: row.creatorRole as Role,
    customRoleId: row.creatorCustomRoleId,
    usertype: row.creatorUsertype,
    tenantId: link.tenantId,
    tenantName: row.tenantName,
    tenantKind: row.tenantKind as TenantKind,
    sessionHash: tokenHash,
    permissions: embedPermissions(kinds).filter((permission) => held.includes(permission)),
    target: null,
    embed: { linkId: link.id, name: link.name, kinds, userId: link.userId, expiresAt: link.expiresAt },
  };
}
