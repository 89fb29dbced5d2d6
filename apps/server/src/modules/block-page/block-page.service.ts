import { randomBytes } from 'node:crypto';
import {
  ACCESS_REQUEST_LIMITS,
  type AccessRequest,
  type AccessRequestListQuery,
  BLOCK_PAGE_TYPES,
  type BlockPageInfo,
  type BlockPageType,
  type PolicyRule,
  parseIpv4,
  RULE_LAYERS,
  Uuid,
} from '@palisade/contracts';
import { decide, type EngineInput } from '@palisade/policy-engine';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { ensureBundle, type GatewayDeps } from '../gateways/gateways.service';
import {
  commitPolicyChange,
  type LivePolicy,
  markPolicyChanged,
  type PolicyCache,
} from '../policy-core/policy-core.service';
import { tenantPublicBranding } from '../tenants/partner-settings.service';
import { getUser } from '../users/users.service';
import * as repo from './block-page.repository';

/*
 * The block page (spec §2 `/blockaccess/{type}/{id}`) and its "Request access". The page is public: it answers
 * from the gateway's redirect (contracts block-page.ts) what the tenant's end user may know — the tenant's
 * branding, the host and URL as the gateway named them, the kind of rule and its category — and nothing when the
 * type, the tenant or the rule is not one of that tenant's (the generic page: the same answer for all of them, so
 * it tells nothing about other tenants). An approved request is a time-boxed allow for the user behind the
 * request's tunnel address, compiled by policy-core (block-page.engine-source.ts).
 */

export interface BlockPageDeps {
  database: Database;
  mailer: Mailer;
  /** This module's own compiled policies (the rule that blocked, the decision of a `site` block). */
  policies: PolicyCache;
  /** Who is behind a tunnel address: the gateways' bundle identities. */
  gateways: GatewayDeps;
}

const WINDOW = ACCESS_REQUEST_LIMITS.windowMinutes * 60 * 1000;

/** A reference the user can quote: `BP-` and eight characters of Crockford's base32. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newReference(): string {
  const bytes = randomBytes(8);
  return `BP-${[...bytes].map((b) => ALPHABET[b % 32]).join('')}`;
}
const REFERENCE = /^BP-[0-9A-HJKMNP-TV-Z]{8}$/;

/** A host name as a gateway names it (lower case, no port, no trailing dot), or null when it is none. */
export function cleanHost(raw: string | undefined): string | null {
  if (!raw) return null;
  const host = raw.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (host.length === 0 || host.length > 253) return null;
  return /^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(host) ? host : null;
}

const cleanUrl = (raw: string | undefined): string | null => {
  const url = raw?.trim();
  // Shown as text, never as a link; control characters are no part of a URL.
  const hasControl = [...(url ?? '')].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);
  return url && url.length <= 2000 && !hasControl ? url : null;
};

const cleanClient = (raw: string | undefined) => (raw && parseIpv4(raw.trim()) !== null ? raw.trim() : null);

const isType = (type: string): type is BlockPageType =>
  (BLOCK_PAGE_TYPES as readonly string[]).includes(type);

/** A rule of the tenant's live policy by id, with what the page may say about it. */
function findRule(input: EngineInput, id: string): PolicyRule | null {
  for (const policy of input.policies) {
    for (const rule of policy.rules) if (rule.id === id) return rule;
  }
  return null;
}

/** Who is behind a tunnel address of the tenant (the gateways' bundle), or null. */
async function identityOf(deps: BlockPageDeps, tenantId: string, client: string | null) {
  if (!client) return null;
  const bundle = await ensureBundle(deps.gateways, tenantId);
  return bundle.identities.find((identity) => identity.address === client) ?? null;
}

function genericPage(): BlockPageInfo {
  return {
    generic: true,
    type: null,
    branding: null,
    host: null,
    url: null,
    ruleId: null,
    ruleKind: null,
    layer: null,
    category: null,
    at: new Date().toISOString(),
    reference: newReference(),
    canRequest: false,
  };
}

/** The tenant (by the UUID the gateway's redirect carries) and its live policy, or null. */
async function tenantOf(deps: BlockPageDeps, tenant: string | undefined) {
  if (!tenant || !Uuid.safeParse(tenant).success) return null;
  const branding = await tenantPublicBranding(deps.database, tenant);
  if (!branding) return null;
  const live = await deps.policies.compiledFor(branding.tenantId);
  return { branding, live };
}

/** The blocking rule the page is about: the one named, or for `site` the one the engine decides with. */
async function blockingRule(
  deps: BlockPageDeps,
  tenantId: string,
  live: LivePolicy,
  id: string | null,
  request: { host: string | null; client: string | null },
): Promise<PolicyRule | null> {
  if (id !== null) {
    const rule = findRule(live.input, id);
    return rule?.action === 'block' ? rule : null;
  }
  if (!request.host) return null;
  const who = await identityOf(deps, tenantId, request.client);
  const decision = decide(live.compiled, {
    host: request.host,
    userId: who?.userId ?? null,
    groups: who?.groups ?? [],
    deviceId: who?.deviceId ?? null,
    sourceIp: request.client,
  });
  return decision.decision === 'block' && decision.rule ? findRule(live.input, decision.rule.ruleId) : null;
}

/**
 * What the block page shows for `/blockaccess/{type}` (`id` null: the console finds the blocking rule) and
 * `/blockaccess/{type}/{id}`. Anything unknown — the type, the tenant, a rule that is not one of the tenant's
 * blocks — answers the generic page.
 */
export async function blockPageInfo(
  deps: BlockPageDeps,
  type: string,
  id: string | null,
  query: { tenant?: string; host?: string; url?: string; client?: string },
): Promise<BlockPageInfo> {
  if (!isType(type)) return genericPage();
  const found = await tenantOf(deps, query.tenant);
  if (!found) return genericPage();
  const { branding, live } = found;
  const host = cleanHost(query.host);
  const client = cleanClient(query.client);
  const rule = await blockingRule(deps, branding.tenantId, live, id, { host, client });
  if (id !== null && !rule) return genericPage();
  const categoryId = rule?.categories[0] ?? null;
  const category = categoryId
    ? live.input.objects.categories.find((c) => c.id === categoryId && !c.custom)
    : undefined;
  return {
    generic: false,
    type,
    branding: {
      displayName: branding.displayName,
      primaryColor: branding.primaryColor,
      accentColor: branding.accentColor,
      logo: branding.logo,
    },
    host,
    url: cleanUrl(query.url),
    ruleId: rule?.id ?? null,
    ruleKind: rule?.type ?? null,
    layer: rule ? (RULE_LAYERS[rule.type][0] ?? null) : null,
    category: categoryId ? { id: categoryId, name: category?.name ?? null } : null,
    at: new Date().toISOString(),
    reference: newReference(),
    canRequest: rule !== null && host !== null,
  };
}

// ---- Request access ----------------------------------------------------------------------------------------

const rateLimited = (retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('rate_limited', `Too many access requests; try again in ${seconds} s.`, undefined, {
    'retry-after': String(seconds),
  });
};

/** How long until one more request fits a window holding `times` (oldest first) with room for `limit`. */
function waitFor(times: Date[], limit: number, now: number): number {
  if (times.length < limit) return 0;
  const leaving = times[times.length - limit];
  return leaving.getTime() + WINDOW - now;
}

/** Who the form's writes are recorded as: the end user is no console actor. */
const publicCtx = (tenantId: string, ip: string | null) => ({
  tenant: { id: tenantId },
  actor: { id: null, username: 'block page' },
  ip,
});

/**
 * Stores a pending access request (201) for the host a tenant's rule blocked, linked to the user and device behind
 * the tunnel address when the gateways know one. Refused: the tenant or rule unknown (404), more requests than
 * ACCESS_REQUEST_LIMITS from this tunnel address (or caller) or for this tenant in the window (429 `rate_limited`,
 * Retry-After), a pending request of the same user (or address) for the same host (409 `access_request_pending`).
 */
export async function requestAccess(
  deps: BlockPageDeps,
  params: { type: string; id: string },
  body: {
    tenant: string;
    host: string;
    url?: string;
    client?: string;
    reference?: string;
    reason: string;
  },
  ip: string | null,
): Promise<{ reference: string; status: 'pending' }> {
  if (!isType(params.type)) throw notFound('Block');
  const found = await tenantOf(deps, body.tenant);
  if (!found) throw notFound('Block');
  const tenantId = found.branding.tenantId;
  const rule = findRule(found.live.input, params.id);
  const host = cleanHost(body.host);
  if (rule?.action !== 'block' || !host) throw notFound('Block');
  const client = cleanClient(body.client);
  const who = await identityOf(deps, tenantId, client);
  const sourceKey = client ? `client:${client}` : `address:${ip ?? 'unknown'}`;
  const reference = body.reference && REFERENCE.test(body.reference) ? body.reference : newReference();
  return deps.database.tenantTx(tenantId, async (tx) => {
    await repo.lockRequests(tx, tenantId);
    const now = Date.now();
    const since = new Date(now - WINDOW);
    const wait = Math.max(
      waitFor(
        await repo.requestTimesSince(tx, tenantId, since, sourceKey),
        ACCESS_REQUEST_LIMITS.perClient,
        now,
      ),
      waitFor(await repo.requestTimesSince(tx, tenantId, since), ACCESS_REQUEST_LIMITS.perTenant, now),
    );
    if (wait > 0) throw rateLimited(wait);
    const userId = who?.userId ?? null;
    if (await repo.findPending(tx, tenantId, { userId, sourceKey }, host)) {
      throw new AppError('access_request_pending', 'A request for this site already waits for a decision.');
    }
    const row = await repo.insertRequest(tx, {
      tenantId,
      reference,
      blockType: params.type,
      ruleId: rule.id,
      ruleKind: rule.type,
      host,
      url: cleanUrl(body.url),
      client,
      sourceKey,
      userId,
      deviceId: who?.deviceId ?? null,
      reason: body.reason,
    });
    await recordEvent(tx, publicCtx(tenantId, ip), {
      action: 'policy.accessRequest.create',
      objectType: 'accessRequest',
      objectId: row.id,
      objectName: host,
      after: { reference, host, type: params.type, client, userId },
    });
    return { reference, status: 'pending' as const };
  });
}

// ---- The administrators' side ------------------------------------------------------------------------------

/** A user's name and address for the list and the mails, or null when they are no end user of the tenant. */
async function endUser(database: Database, ctx: Ctx, userId: string | null) {
  if (!userId) return null;
  try {
    const user = await getUser(database, ctx, userId);
    return { id: user.id, name: user.fullname.trim() || user.username, email: user.email || user.username };
  } catch {
    return null;
  }
}

export function presentRequest(
  row: repo.AccessRequestRow,
  user: { id: string; name: string } | null,
): AccessRequest {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    type: row.blockType,
    ruleKind: row.ruleKind,
    host: row.host,
    url: row.url,
    client: row.client,
    user: user ? { id: user.id, name: user.name } : null,
    deviceId: row.deviceId,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    note: row.note,
  };
}

export async function listAccessRequests(
  database: Database,
  ctx: Ctx,
  query: z.output<typeof AccessRequestListQuery>,
) {
  const { status, limit, offset } = query;
  const { rows, total } = await database.tenantTx(ctx.tenant.id, (tx) =>
    repo.listRequests(tx, ctx.tenant.id, { status, limit, offset }),
  );
  const names = new Map<string, { id: string; name: string } | null>();
  for (const id of new Set(rows.map((r) => r.userId).filter((u): u is string => Boolean(u)))) {
    names.set(id, await endUser(database, ctx, id));
  }
  return {
    items: rows.map((row) => presentRequest(row, row.userId ? (names.get(row.userId) ?? null) : null)),
    total,
  };
}

export async function countAccessRequests(database: Database, ctx: Ctx) {
  return { pending: await database.tenantTx(ctx.tenant.id, (tx) => repo.countPending(tx, ctx.tenant.id)) };
}

async function pendingRequest(tx: Tx, ctx: Ctx, id: string) {
  const row = await repo.getRequestForUpdate(tx, ctx.tenant.id, id);
  if (!row) throw notFound('Access request');
  if (row.status !== 'pending') {
    throw new AppError('access_request_decided', 'This access request was already decided.');
  }
  return row;
}

const formatUtc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Tells the user what was decided (the local outbox or SMTP); a mail that fails is logged, not the decision. */
async function mailDecision(
  deps: Pick<BlockPageDeps, 'mailer'>,
  user: { email: string } | null,
  row: repo.AccessRequestRow,
  log?: FastifyBaseLogger,
) {
  if (!user?.email) return;
  const approved = row.status === 'approved';
  const until = row.expiresAt ? formatUtc(row.expiresAt) : '';
  const note = row.note ? `\n\nNote / Hinweis: ${row.note}` : '';
  const text = approved
    ? `Your request for access to ${row.host} (reference ${row.reference}) was approved until ${until}.\n\n` +
      `Ihre Anfrage für den Zugriff auf ${row.host} (Referenz ${row.reference}) wurde bis ${until} genehmigt.${note}`
    : `Your request for access to ${row.host} (reference ${row.reference}) was declined.\n\n` +
      `Ihre Anfrage für den Zugriff auf ${row.host} (Referenz ${row.reference}) wurde abgelehnt.${note}`;
  try {
    await deps.mailer.send({
      to: user.email,
      subject: approved
        ? `Access to ${row.host} approved / Zugriff genehmigt`
        : `Access to ${row.host} declined / Zugriff abgelehnt`,
      text,
    });
  } catch (err) {
    log?.warn({ err }, 'access request mail failed');
  }
}

/**
 * Approves a pending request: its host is allowed for the user behind it (or its device) for `minutes`, from
 * the next decision on and on the gateways with the next bundle (the change goes through the policy-test guard
 * and bumps the policy version). 409 when it was decided already, or when nobody was behind its tunnel address.
 */
export async function approveAccessRequest(
  deps: Pick<BlockPageDeps, 'database' | 'mailer'>,
  ctx: Ctx,
  id: string,
  minutes: number,
) {
  const row = await commitPolicyChange(deps.database, ctx, async (tx) => {
    const pending = await pendingRequest(tx, ctx, id);
    if (!pending.userId && !pending.deviceId) {
      throw new AppError(
        'access_request_no_identity',
        'Nobody was behind the tunnel address of this request: it cannot be approved for a user.',
      );
    }
    const expiresAt = new Date(Date.now() + minutes * 60 * 1000);
    const decided = await repo.decideRequest(tx, ctx.tenant.id, id, {
      status: 'approved',
      decidedBy: ctx.actor.username,
      expiresAt,
      note: null,
    });
    await recordEvent(tx, ctx, {
      action: 'policy.accessRequest.approve',
      objectType: 'accessRequest',
      objectId: id,
      objectName: pending.host,
      before: { status: 'pending' },
      after: { status: 'approved', host: pending.host, userId: pending.userId, minutes, expiresAt },
    });
    return decided;
  });
  const user = await endUser(deps.database, ctx, row.userId);
  await mailDecision(deps, user, row);
  return presentRequest(row, user);
}

/** Declines a pending request, with an optional note mailed to the user. 409 when it was decided already. */
export async function declineAccessRequest(
  deps: Pick<BlockPageDeps, 'database' | 'mailer'>,
  ctx: Ctx,
  id: string,
  note: string | undefined,
) {
  const row = await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const pending = await pendingRequest(tx, ctx, id);
    const decided = await repo.decideRequest(tx, ctx.tenant.id, id, {
      status: 'declined',
      decidedBy: ctx.actor.username,
      expiresAt: null,
      note: note?.trim() || null,
    });
    await recordEvent(tx, ctx, {
      action: 'policy.accessRequest.decline',
      objectType: 'accessRequest',
      objectId: id,
      objectName: pending.host,
      before: { status: 'pending' },
      after: { status: 'declined', note: decided.note },
    });
    return decided;
  });
  const user = await endUser(deps.database, ctx, row.userId);
  await mailDecision(deps, user, row);
  return presentRequest(row, user);
}

// ---- Expiry ------------------------------------------------------------------------------------------------

/**
 * Marks approvals past their end expired and bumps their tenants' policy versions, so every instance and gateway
 * drops the allow (policy-core already leaves an expired approval out of a new build). Answers how many expired.
 */
export async function expireApprovals(database: Database, now = new Date()): Promise<number> {
  const expired = await repo.expireDue(database.db, now);
  const byTenant = new Map<string, repo.AccessRequestRow[]>();
  for (const row of expired) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
  for (const [tenantId, rows] of byTenant) {
    await database.tenantTx(tenantId, async (tx) => {
      await markPolicyChanged(tx, tenantId);
      for (const row of rows) {
        await recordEvent(
          tx,
          { tenant: { id: tenantId }, actor: null, ip: null },
          {
            action: 'policy.accessRequest.expire',
            objectType: 'accessRequest',
            objectId: row.id,
            objectName: row.host,
            before: { status: 'approved' },
            after: { status: 'expired' },
          },
        );
      }
    });
  }
  return expired.length;
}

const EXPIRY_INTERVAL_MS = 60_000;

/** Starts the minutely approval-expiry sweep; answers the function that stops it. */
export function startApprovalExpiry(database: Database, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    database.background(
      expireApprovals(database)
        .then((n) => {
          if (n) log.info({ expired: n }, 'expired access approvals');
        })
        .catch((err: unknown) => log.error({ err }, 'access approval expiry failed')),
    );
  }, EXPIRY_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
