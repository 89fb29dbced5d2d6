import {
  EMPTY_SITE_CONFIG,
  type GatewayKind,
  portForwardConflicts,
  SITE_GATEWAY_KINDS,
  type SiteConfig,
  type SiteConfigView,
} from '@palisade/contracts';
import type { Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import { markPolicyChanged } from '../policy-core/policy-core.service';
import * as repo from './gateways.repository';
import { ensureBundle, type GatewayDeps, presentGateway, retired } from './gateways.service';
import { inMesh } from './mesh-plan';
import * as siteRepo from './site-config.repository';

/**
 * Site gateway configuration (issue 11): the LANs, VLANs, WAN, port forwards and traffic flows of a gateway of
 * kind `cgw`, `cgwr` or `lgw`. Saving one changes that gateway's bundle (its version hashes its site artefacts,
 * see gateways.service.ts `gatewayBundle`) and wakes its long-poll on every instance through the change bus;
 * the other gateways and the tenant's policy version are untouched.
 */

const isSiteKind = (kind: GatewayKind): kind is (typeof SITE_GATEWAY_KINDS)[number] =>
  (SITE_GATEWAY_KINDS as readonly GatewayKind[]).includes(kind);

/** The site gateway of the tenant; a cybernode, a virtual cybernode or an unknown id is not found. */
async function siteGateway(tx: Tx, tenantId: string, id: string) {
  const row = await repo.getGateway(tx, tenantId, id);
  if (!row || !isSiteKind(row.kind)) throw notFound('Site gateway');
  return { ...row, kind: row.kind };
}

/** The configuration with the gateway's state: the bundle version carrying it against the one it enforces. */
async function view(
  deps: GatewayDeps,
  gateway: repo.GatewayRow & { kind: (typeof SITE_GATEWAY_KINDS)[number] },
  stored: siteRepo.SiteConfigRow | null,
): Promise<SiteConfigView> {
  const config = stored?.config ?? EMPTY_SITE_CONFIG;
  const current = await ensureBundle(deps, gateway.tenantId);
  const shown = presentGateway(gateway, current, Date.now(), stored?.config ?? null);
  return {
    ...config,
    gatewayId: gateway.id,
    kind: gateway.kind,
    name: gateway.name,
    status: shown.status,
    updatedAt: stored?.updatedAt.toISOString() ?? null,
    currentVersion: shown.currentVersion,
    appliedVersion: gateway.enforcedVersion,
    isApplied: shown.currentVersion !== null && gateway.enforcedVersion === shown.currentVersion,
  };
}

export async function getSiteConfig(deps: GatewayDeps, ctx: Ctx, id: string): Promise<SiteConfigView> {
  const tenantId = ctx.tenant.id;
  const [gateway, stored] = await deps.database.tenantTx(
    tenantId,
    async (tx) =>
      [await siteGateway(tx, tenantId, id), await siteRepo.siteConfigOf(tx, tenantId, id)] as const,
  );
  return view(deps, gateway, stored);
}

/**
 * Replaces a site gateway's configuration (checked by the contract's SiteConfigInput; the port forwards'
 * clashes here, answered with the ip and both sources or the forward already claiming the port), records it in
 * the admin event log and announces it, all in one transaction: a waiting gateway gets its new bundle at once.
 * A retired gateway takes no configuration (409).
 */
export async function putSiteConfig(
  deps: GatewayDeps,
  ctx: Ctx,
  id: string,
  config: SiteConfig,
): Promise<SiteConfigView> {
  const tenantId = ctx.tenant.id;
  const [gateway, stored] = await deps.database.tenantTx(tenantId, async (tx) => {
    const found = await siteGateway(tx, tenantId, id);
    const conflicts = portForwardConflicts(config.portForwards);
    if (conflicts.length > 0) {
      throw invalid(
        conflicts.map((problem) => ({
          path: ['body', ...problem.path].join('.'),
          message: problem.message,
          ...(problem.values ? { values: problem.values } : {}),
        })),
      );
    }
    if (found.retiredAt) throw retired();
    const before = await siteRepo.siteConfigOf(tx, tenantId, id);
    const saved = await siteRepo.saveSiteConfig(tx, {
      tenantId,
      gatewayId: id,
      config,
      updatedBy: ctx.actor.id,
    });
    await siteRepo.announceSiteConfig(tx, tenantId, id);
    // A mesh site's networks are routed to it by the hub and the other sites: they take the change too.
    if (await inMesh(tx, tenantId, id)) await markPolicyChanged(tx, tenantId);
    await recordEvent(tx, ctx, {
      action: 'gateway.siteConfig',
      objectType: 'gateway',
      objectId: id,
      objectName: found.name,
      before: before?.config ?? EMPTY_SITE_CONFIG,
      after: config,
    });
    return [found, saved] as const;
  });
  return view(deps, gateway, stored);
}
