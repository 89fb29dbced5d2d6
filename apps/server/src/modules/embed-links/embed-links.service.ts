import { randomBytes } from 'node:crypto';
import {
  type CreatedEmbedLink,
  EMBED_TOKEN_PREFIX,
  EMBED_TOKEN_SHOWN_PREFIX_LENGTH,
  type EmbedLink,
  type EmbedLinkInput,
  type EmbedLinkListQuery,
  type EmbedSession,
  embedPermissions,
  needsReauthentication,
  ONE_DAY_MS,
} from '@palisade/contracts';
import type { z } from 'zod';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { forbidden, invalid, notFound } from '../../lib/errors';
import { actorCan, assertCanGrant } from '../../lib/grants';
import { sessionFlags } from '../features/features.service';
import { confirmIdentity, type SessionDeps } from '../session/session.service';
import * as repo from './embed-links.repository';

/** `emb_` and 32 random bytes, base64url (contracts `EMBED_TOKEN_PATTERN`). */
const newToken = () => `${EMBED_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** The public shape of a link: never the hash, never the token. */
function present(row: repo.EmbedLinkListRow, tenant: string): EmbedLink {
  return {
    id: row.id,
    name: row.name,
    tenant,
    kinds: row.kinds,
    userId: row.userId,
    prefix: row.prefix,
    createdBy: { id: row.creatorId, username: row.creatorUsername },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Only a person signed in with a session makes links: never an API token (automation would mint credentials)
 * nor an embed link itself, nor an end user. Checked right after the access check, before the input.
 */
export function assertMayMakeLinks(ctx: Ctx): void {
  if (ctx.actor.tokenId || ctx.actor.embed || ctx.actor.usertype === 0) throw forbidden();
}

export function listLinks(deps: SessionDeps, ctx: Ctx, query: EmbedLinkListQuery) {
  return deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const page = await repo.listLinks(tx, ctx.tenant.id, {
      ...query,
      isActive: query.active === undefined ? undefined : query.active === 'true',
    });
    return { items: page.items.map((row) => present(row, ctx.tenant.name)), total: page.total };
  });
}

/**
 * Makes a link for dashboards of the working tenant. Its creator must hold what those dashboards read (nobody
 * grants what they do not hold), a per-user link names one of the tenant's end users, and a link living past 30
 * days asks for the password or a TOTP code again. The token is answered this once; only its hash is kept.
 */
export async function createLink(
  deps: SessionDeps,
  ctx: Ctx,
  input: z.output<typeof EmbedLinkInput>,
): Promise<CreatedEmbedLink> {
  const { actor, tenant } = ctx;
  assertCanGrant(actor, embedPermissions(input.kinds), 'body.kinds');
  if (needsReauthentication(input.expiresInDays)) {
    await confirmIdentity(deps, actor, input.reauth, 'body.reauth');
  }
  const token = newToken();
  return deps.database.tenantTx(tenant.id, async (tx) => {
    if (input.userId && !(await repo.isEndUser(tx, tenant.id, input.userId))) {
      throw invalid([{ path: 'body.userId', message: 'validation.unknownUser' }]);
    }
    const row = await repo.insertLink(tx, {
      tenantId: tenant.id,
      name: input.name,
      kinds: input.kinds,
      userId: input.userId,
      creatorTenantId: actor.tenantId,
      creatorId: actor.id,
      tokenHash: hashToken(token),
      prefix: token.slice(0, EMBED_TOKEN_SHOWN_PREFIX_LENGTH),
      expiresAt: new Date(Date.now() + input.expiresInDays * ONE_DAY_MS),
    });
    const link = present({ ...row, creatorUsername: actor.username }, tenant.name);
    await recordEvent(tx, ctx, {
      action: 'embed_link.create',
      objectType: 'embed_link',
      objectId: row.id,
      objectName: row.name,
      after: link,
    });
    return { ...link, token };
  });
}

/**
 * Revokes a link (idempotent): its creator, or whoever manages the tenant's administrators (`roles:update`). A
 * view open with it stops at once (the credentials announcement), whatever instance serves it.
 */
export function revokeLink(deps: SessionDeps, ctx: Ctx, id: string) {
  return deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await repo.getLink(tx, ctx.tenant.id, id);
    if (!row) throw notFound('Embed link');
    if (row.creatorId !== ctx.actor.id && !actorCan(ctx.actor, 'roles:update')) throw forbidden();
    const before = present(row, ctx.tenant.name);
    if (row.revokedAt) return before;
    const revoked = await repo.revokeLink(tx, ctx.tenant.id, id);
    const after = present({ ...revoked, creatorUsername: row.creatorUsername }, ctx.tenant.name);
    await announceCredentialChange(tx, `session:${row.tokenHash}`);
    await recordEvent(tx, ctx, {
      action: 'embed_link.revoke',
      objectType: 'embed_link',
      objectId: row.id,
      objectName: row.name,
      before,
      after,
    });
    return after;
  });
}

/** What the view opened with a link learns: its tenant, dashboards, look and what it reads with. */
export async function embedSession(deps: SessionDeps, ctx: Ctx): Promise<EmbedSession> {
  const grant = ctx.actor.embed;
  if (!grant) throw forbidden();
  const [look, { features }] = await Promise.all([
    repo.tenantLook(deps.database.db, ctx.tenant.id),
    sessionFlags(deps, ctx.tenant),
  ]);
  if (!look) throw notFound('Tenant');
  return {
    linkId: grant.linkId,
    name: grant.name,
    tenant: ctx.tenant.name,
    tenantDisplayName: look.displayName,
    tenantKind: ctx.tenant.kind,
    kinds: [...grant.kinds],
    userId: grant.userId,
    permissions: [...(ctx.actor.permissions ?? [])],
    features,
    tenantTheme: look.themevalue as EmbedSession['tenantTheme'],
    tenantPalette: look.palette as EmbedSession['tenantPalette'],
    expiresAt: grant.expiresAt.toISOString(),
  };
}
