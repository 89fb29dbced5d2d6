import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_RANDOM_LENGTH,
  API_TOKEN_SHOWN_PREFIX_LENGTH,
  type ApiToken,
  type ApiTokenInput,
  type ApiTokenListQuery,
  type CreatedApiToken,
  ONE_DAY_MS,
  requestedTokenPermissions,
  type TenantApiToken,
  type TenantApiTokenListQuery,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Actor, Ctx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { notFound } from '../../lib/errors';
import { assertCanGrant } from '../../lib/grants';
import * as repo from './tokens.repository';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `pal_` and 40 base62 characters (≈ 238 bits), drawn without modulo bias. */
export function newSecret(): string {
  let out = API_TOKEN_PREFIX;
  while (out.length < API_TOKEN_PREFIX.length + API_TOKEN_RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: larger bytes would favour the first characters.
      if (byte < 248 && out.length < API_TOKEN_PREFIX.length + API_TOKEN_RANDOM_LENGTH)
        out += BASE62[byte % 62];
    }
  }
  return out;
}

/** The public shape of a token: never the hash, never the secret. */
export function presentToken(row: repo.TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions,
    isReadOnly: row.isReadOnly,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Tokens live in their owner's tenant, whatever tenant the owner is working on. */
const ownTenant = (actor: Actor) => ({ id: actor.tenantId, name: actor.tenantName, kind: actor.tenantKind });

export function listTokens(database: Database, ctx: Ctx, query: ApiTokenListQuery) {
  const { actor } = ctx;
  return database.tenantTx(actor.tenantId, async (tx) => {
    const page = await repo.listTokens(tx, actor.tenantId, actor.id, query);
    return { items: page.items.map(presentToken), total: page.total };
  });
}

export async function createToken(
  database: Database,
  ctx: Ctx,
  input: z.output<typeof ApiTokenInput>,
): Promise<CreatedApiToken> {
  const { actor } = ctx;
  const permissions = requestedTokenPermissions(input);
  // A session actor's permissions are read on this very call: what its role holds now.
  assertCanGrant(actor, permissions, 'body.permissions');
  const secret = newSecret();
  return database.tenantTx(actor.tenantId, async (tx) => {
    const row = await repo.insertToken(tx, {
      tenantId: actor.tenantId,
      userId: actor.id,
      name: input.name,
      tokenHash: hashToken(secret),
      prefix: secret.slice(0, API_TOKEN_SHOWN_PREFIX_LENGTH),
      permissions,
      isReadOnly: input.isReadOnly,
      expiresAt:
        input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * ONE_DAY_MS),
    });
    const token = presentToken(row);
    await recordEvent(
      tx,
      { ...ctx, tenant: ownTenant(actor) },
      {
        action: 'api_token.create',
        objectType: 'api_token',
        objectId: row.id,
        objectName: row.name,
        after: token,
      },
    );
    return { ...token, secret };
  });
}

/** Revokes a token (idempotent) in the transaction's tenant, recording who did it in that tenant's log. */
async function revokeIn(tx: Tx, ctx: Ctx, row: repo.TokenRow) {
  if (row.revokedAt) return presentToken(row);
  const after = presentToken(await repo.revokeToken(tx, row.tenantId, row.id));
  // Its open live views end at once, on every instance (a token acts under its secret's hash).
  await announceCredentialChange(tx, `session:${row.tokenHash}`);
  await recordEvent(tx, ctx, {
    action: 'api_token.revoke',
    objectType: 'api_token',
    objectId: row.id,
    objectName: row.name,
    before: presentToken(row),
    after,
  });
  return after;
}

/** Revokes one of the actor's own tokens (idempotent); anyone else's answers 404. */
export function revokeToken(database: Database, ctx: Ctx, id: string) {
  const { actor } = ctx;
  return database.tenantTx(actor.tenantId, async (tx) => {
    const row = await repo.getOwnToken(tx, actor.tenantId, actor.id, id);
    if (!row) throw notFound('Token');
    return revokeIn(tx, { ...ctx, tenant: ownTenant(actor) }, row);
  });
}

/** Revokes every usable token of an administrator (a password change that asks for it); answers how many. */
export async function revokeAllTokens(tx: Tx, ctx: Ctx, userId: string): Promise<number> {
  const rows = await repo.activeTokensOf(tx, ctx.tenant.id, userId);
  for (const row of rows) await revokeIn(tx, ctx, row);
  return rows.length;
}

const presentTenantToken = (row: repo.TokenRow & { ownerUsername: string }): TenantApiToken => ({
  ...presentToken(row),
  owner: { id: row.userId, username: row.ownerUsername },
});

/** Every administrator's tokens of the tenant, newest first (for owners and `roles:update` holders). */
export function listTenantTokens(database: Database, ctx: Ctx, query: TenantApiTokenListQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const page = await repo.listTenantTokens(tx, ctx.tenant.id, {
      ...query,
      isActive: query.active === undefined ? undefined : query.active === 'true',
    });
    return { items: page.items.map(presentTenantToken), total: page.total };
  });
}

/** Revokes any administrator's token of the tenant (idempotent); another tenant's answers 404. */
export function revokeTenantToken(database: Database, ctx: Ctx, id: string) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await repo.getTenantToken(tx, ctx.tenant.id, id);
    if (!row) throw notFound('Token');
    const token = await revokeIn(tx, ctx, row);
    return { ...token, owner: { id: row.userId, username: row.ownerUsername } };
  });
}
