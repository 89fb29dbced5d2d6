import { randomUUID } from 'node:crypto';
import {
  type ErrorDetail,
  type Feed,
  type FeedUpdate,
  type MaliciousIpQuery,
  parseFeedText,
  type UploadFeedInput,
  type UrlFeedInput,
} from '@palisade/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import {
  commitPolicyChange,
  removeRuleReferences,
  ruleReferenceCounts,
} from '../policy-core/policy-core.service';
import { BUILTIN_FEED_IDS, BUILTIN_FEEDS } from './data/feeds';
import {
  allFeeds,
  type FeedState,
  type FetchOutcome,
  fetchFeed,
  maliciousIps,
  matchesIpQuery,
} from './feeds';
import * as repo from './policy-objects.repository';

type Out<T extends z.ZodType> = z.output<T>;

/** How often the scheduler looks for URL feeds whose refresh is due. */
export const FEED_REFRESH_TICK_MS = 60_000;

function presentFeed(feed: FeedState, counts: Map<string, number>): Feed {
  return {
    id: feed.id,
    name: feed.name,
    kind: feed.kind,
    url: feed.url,
    fileName: feed.fileName,
    refreshMinutes: feed.refreshMinutes,
    enabled: feed.enabled,
    ipCount: feed.ips.length,
    domainCount: feed.domains.length,
    lastRefreshedAt: feed.lastRefreshedAt ? feed.lastRefreshedAt.toISOString() : null,
    lastError: feed.lastError,
    usedBy: counts.get(feed.id) ?? 0,
  };
}

const nameTaken = () =>
  new AppError('conflict', 'A feed with this name exists.', [
    { path: 'body.name', message: 'validation.nameTaken' },
  ]);

function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw nameTaken();
  throw error;
}

async function feedNameInUse(tx: Tx, tenantId: string, name: string, exceptId?: string) {
  const lower = name.toLowerCase();
  if (BUILTIN_FEEDS.some((f) => f.id !== exceptId && f.name.toLowerCase() === lower)) return true;
  return repo.feedNameTaken(tx, tenantId, name, exceptId);
}

async function requireFeed(tx: Tx, tenantId: string, id: string): Promise<FeedState> {
  const feed = (await allFeeds(tx, tenantId)).find((f) => f.id === id);
  if (!feed) throw notFound('Feed');
  return feed;
}

async function presentOne(tx: Tx, tenantId: string, id: string): Promise<Feed> {
  const counts = await ruleReferenceCounts(tx, tenantId, 'feed');
  return presentFeed(await requireFeed(tx, tenantId, id), counts);
}

/** What the event log keeps of a feed: its settings and counts, not its (possibly huge) entries. */
const logged = (feed: Feed) => ({ ...feed, usedBy: undefined });

export function listFeeds(database: Database, ctx: Ctx): Promise<Feed[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const feeds = await allFeeds(tx, ctx.tenant.id);
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'feed');
    return feeds.map((feed) => presentFeed(feed, counts));
  });
}

/**
 * Adds a URL feed: fetched now (outside any transaction), then stored with its entries — or, when the fetch
 * failed, stored without entries and with the error, so the screen shows why and a refresh can retry.
 */
export async function createUrlFeed(database: Database, ctx: Ctx, input: Out<typeof UrlFeedInput>) {
  const tenantId = ctx.tenant.id;
  if (await database.tenantTx(tenantId, (tx) => feedNameInUse(tx, tenantId, input.name))) throw nameTaken();
  const outcome = await fetchFeed(input.url);
  return commitPolicyChange(database, ctx, async (tx) => {
    if (await feedNameInUse(tx, tenantId, input.name)) throw nameTaken();
    const id = randomUUID();
    await repo.insertFeed(tx, tenantId, {
      id,
      name: input.name,
      kind: 'url',
      url: input.url,
      fileName: null,
      refreshMinutes: input.refreshMinutes,
      enabled: input.enabled,
      ips: outcome.ok ? outcome.ips : [],
      domains: outcome.ok ? outcome.domains : [],
      lastRefreshedAt: outcome.ok ? new Date() : null,
      lastError: outcome.ok ? outcome.warning : outcome.error,
    });
    const feed = await presentOne(tx, tenantId, id);
    await recordEvent(tx, ctx, {
      action: 'policy.feed.create',
      objectType: 'feed',
      objectId: id,
      objectName: feed.name,
      after: logged(feed),
    });
    return feed;
  }).catch(rethrowUnique);
}

/**
 * Adds an uploaded `.txt` feed. Any line that is not an IP, CIDR or domain refuses the whole upload with one
 * detail per line (`body.content.<line>`), so nothing half-read is ever saved.
 */
export function uploadFeed(database: Database, ctx: Ctx, input: Out<typeof UploadFeedInput>) {
  const tenantId = ctx.tenant.id;
  const parsed = parseFeedText(input.content);
  if (parsed.errors.length > 0) {
    return Promise.reject(
      invalid(parsed.errors.map((e) => ({ path: `body.content.${e.line}`, message: 'validation.feedLine' }))),
    );
  }
  if (parsed.ips.length === 0 && parsed.domains.length === 0) {
    return Promise.reject(invalid([{ path: 'body.content', message: 'validation.feedEmpty' }]));
  }
  return commitPolicyChange(database, ctx, async (tx) => {
    if (await feedNameInUse(tx, tenantId, input.name)) throw nameTaken();
    const id = randomUUID();
    await repo.insertFeed(tx, tenantId, {
      id,
      name: input.name,
      kind: 'upload',
      url: null,
      fileName: input.fileName,
      refreshMinutes: null,
      enabled: input.enabled,
      ips: parsed.ips,
      domains: parsed.domains,
      lastRefreshedAt: new Date(),
      lastError: null,
    });
    const feed = await presentOne(tx, tenantId, id);
    await recordEvent(tx, ctx, {
      action: 'policy.feed.create',
      objectType: 'feed',
      objectId: id,
      objectName: feed.name,
      after: logged(feed),
    });
    return feed;
  }).catch(rethrowUnique);
}

/**
 * Renames, enables or disables a feed, or changes a URL feed's schedule. Built-in feeds can only be enabled
 * or disabled (their state row is created on the first change). Refused (409) when a policy test would fail.
 */
export function updateFeed(database: Database, ctx: Ctx, id: string, input: Out<typeof FeedUpdate>) {
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, tenantId, 'feed');
    const feed = await requireFeed(tx, tenantId, id);
    const details: ErrorDetail[] = [];
    if (feed.kind === 'builtin' && input.name !== undefined && input.name !== feed.name) {
      details.push({ path: 'body.name', message: 'policy.validation.builtinFeed' });
    }
    if (input.refreshMinutes !== undefined && feed.kind !== 'url') {
      details.push({ path: 'body.refreshMinutes', message: 'policy.validation.notUrlFeed' });
    }
    if (details.length > 0) throw invalid(details);
    if (input.name !== undefined && (await feedNameInUse(tx, tenantId, input.name, id))) throw nameTaken();
    const before = presentFeed(feed, counts);
    if (feed.kind === 'builtin') {
      await repo.ensureBuiltinFeedRow(tx, tenantId, feed);
      if (input.enabled !== undefined) await repo.updateFeed(tx, tenantId, id, { enabled: input.enabled });
    } else {
      await repo.updateFeed(tx, tenantId, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.refreshMinutes !== undefined ? { refreshMinutes: input.refreshMinutes } : {}),
      });
    }
    const after = presentFeed(await requireFeed(tx, tenantId, id), counts);
    await recordEvent(tx, ctx, {
      action: 'policy.feed.update',
      objectType: 'feed',
      objectId: id,
      objectName: after.name,
      before: logged(before),
      after: logged(after),
    });
    return after;
  }).catch(rethrowUnique);
}

/** Stores a fetch outcome: new entries on success; on failure the old entries stay and the error is kept. */
async function applyRefresh(tx: Tx, tenantId: string, id: string, outcome: FetchOutcome) {
  if (outcome.ok) {
    await repo.updateFeed(tx, tenantId, id, {
      ips: outcome.ips,
      domains: outcome.domains,
      lastRefreshedAt: new Date(),
      lastError: outcome.warning,
    });
  } else {
    await repo.updateFeed(tx, tenantId, id, { lastError: outcome.error });
  }
}

/** Fetches a URL feed now. A failed fetch is not an error of the call: the feed answers with `lastError`. */
export async function refreshFeed(database: Database, ctx: Ctx, id: string): Promise<Feed> {
  const tenantId = ctx.tenant.id;
  const feed = await database.tenantTx(tenantId, (tx) => requireFeed(tx, tenantId, id));
  if (feed.kind !== 'url' || !feed.url) {
    throw invalid([{ path: 'params.id', message: 'policy.validation.notUrlFeed' }]);
  }
  const outcome = await fetchFeed(feed.url);
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, tenantId, 'feed');
    const before = presentFeed(await requireFeed(tx, tenantId, id), counts);
    await applyRefresh(tx, tenantId, id, outcome);
    const after = presentFeed(await requireFeed(tx, tenantId, id), counts);
    await recordEvent(tx, ctx, {
      action: 'policy.feed.refresh',
      objectType: 'feed',
      objectId: id,
      objectName: after.name,
      before: logged(before),
      after: logged(after),
    });
    return after;
  });
}

/** Deletes uploaded and URL feeds; rules lose them. Built-in feeds are refused (disable them instead). */
export function deleteFeeds(database: Database, ctx: Ctx, ids: string[]) {
  const builtin = ids
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => BUILTIN_FEED_IDS.has(id))
    .map(({ i }) => ({ path: `body.ids.${i}`, message: 'policy.validation.builtinFeed' }));
  if (builtin.length > 0) return Promise.reject(invalid(builtin));
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, tenantId, 'feed');
    const feeds = new Map((await allFeeds(tx, tenantId)).map((f) => [f.id, f]));
    const deleted = await repo.deleteFeeds(tx, tenantId, [...new Set(ids)]);
    await removeRuleReferences(
      tx,
      tenantId,
      'feed',
      deleted.map((row) => row.id),
    );
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'policy.feed.delete',
        objectType: 'feed',
        objectId: row.id,
        objectName: row.name,
        before: logged(presentFeed(feeds.get(row.id)!, counts)),
      });
    }
    return { deleted: deleted.length };
  });
}

/**
 * The IPs and CIDRs of every enabled feed with their sources, by address. `duplicates` counts the entries
 * (after `q`) that two sources list, directly or through a block of another source.
 */
export function listMaliciousIps(database: Database, ctx: Ctx, query: Out<typeof MaliciousIpQuery>) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const feeds = (await allFeeds(tx, ctx.tenant.id)).filter((f) => f.enabled);
    const all = maliciousIps(feeds);
    const matching = query.q ? all.filter((item) => matchesIpQuery(item.ip, query.q!)) : all;
    const duplicates = matching.filter((item) => item.sources.length > 1);
    const list = query.duplicatesOnly === 'true' ? duplicates : matching;
    return {
      items: list.slice(query.offset, query.offset + query.limit),
      total: list.length,
      duplicates: duplicates.length,
    };
  });
}

// ---- Scheduled refresh -------------------------------------------------------------------------------

/**
 * The scheduler acts for no administrator: the change guard only needs the tenant, and scheduled refreshes
 * are not admin actions, so they are not written to the admin event log.
 */
function schedulerCtx(tenantId: string): Ctx {
  return { tenant: { id: tenantId, name: '', kind: 'customer' }, actor: null, ip: null } as unknown as Ctx;
}

/**
 * Refreshes every URL feed whose interval has passed since its last attempt. Each feed is claimed (its attempt
 * stamped) before it is fetched, so when several server instances run this at once each feed is fetched by
 * one of them. A refresh that would break a policy test is refused like any other change; the feed keeps its
 * entries and says so in `lastError`. Returns how many feeds this call attempted.
 */
export async function refreshDueFeeds(database: Database, log?: FastifyBaseLogger): Promise<number> {
  const due = await repo.claimDueUrlFeeds(database.db);
  for (const { tenantId, id } of due) {
    const row = await database.tenantTx(tenantId, (tx) => repo.getFeedRow(tx, tenantId, id));
    if (row?.kind !== 'url' || !row.url) continue;
    const outcome = await fetchFeed(row.url);
    try {
      await commitPolicyChange(database, schedulerCtx(tenantId), (tx) =>
        applyRefresh(tx, tenantId, id, outcome),
      );
    } catch (error) {
      if (error instanceof AppError && error.code === 'policy_tests_failed') {
        const names = (error.failures as { name: string }[]).map((f) => f.name).join(', ');
        await database.tenantTx(tenantId, (tx) =>
          repo.updateFeed(tx, tenantId, id, {
            lastError: `Refresh refused: it would break policy tests (${names})`,
          }),
        );
      } else {
        log?.error({ err: error, tenantId, feedId: id }, 'feed refresh failed');
      }
    }
  }
  return due.length;
}

/** Checks for due URL feeds every minute; one pass at a time. Returns the stop function. */
export function startFeedRefresh(database: Database, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    database.background(
      refreshDueFeeds(database, log)
        .catch((err: unknown) => log.error({ err }, 'feed refresh pass failed'))
        .finally(() => {
          running = false;
        }),
    );
  }, FEED_REFRESH_TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
