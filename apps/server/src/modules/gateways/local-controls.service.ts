import {
  type ErrorDetail,
  type GatewayKind,
  type LocalControls,
  type LocalControlsView,
  type PolicyRule,
  SITE_GATEWAY_KINDS,
  type SiteConfig,
} from '@palisade/contracts';
import { nftablesRuleset, rpzZone } from '@palisade/gateway-config';
import type { EngineInput, EnginePolicy } from '@palisade/policy-engine';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import { countryRanges } from '../policy-core/geoip';
import { loadEngineInput, markPolicyChanged } from '../policy-core/policy-core.service';
import * as repo from './gateways.repository';
import * as local from './local-controls.repository';

/**
 * A site gateway's local controls (contracts: local-controls.ts): what it enforces for its own LANs — chosen
 * tenant policies, web categories, countries, threat-intel feeds — compiled, like the tenant's policy, by the
 * engine's generators into `table inet palisade_local` (connections entering from its LAN interfaces) and the
 * RPZ zone `rpz-local.palisade.`. Saving moves the tenant's policy version, so the gateway gets it at once.
 */

export const NO_CONTROLS: LocalControls = { policyIds: [], categories: [], countries: [], feeds: [] };

const isSiteKind = (kind: GatewayKind) => (SITE_GATEWAY_KINDS as readonly GatewayKind[]).includes(kind);

async function siteGateway(tx: Tx, tenantId: string, id: string) {
  const row = await repo.getGateway(tx, tenantId, id);
  if (!row || !isSiteKind(row.kind)) throw notFound('Site gateway');
  return row;
}

/** The controls with what they name as it stands: a deleted policy, category or feed no longer counts. */
function current(controls: LocalControls, input: EngineInput): LocalControls {
  const policies = new Set(input.policies.filter((p) => !p.system).map((p) => p.id));
  const categories = new Set(input.objects.categories.map((c) => c.id));
  const feeds = new Set(input.objects.feeds.map((f) => f.id));
  return {
    policyIds: controls.policyIds.filter((id) => policies.has(id)),
    categories: controls.categories.filter((id) => categories.has(id)),
    countries: controls.countries,
    feeds: controls.feeds.filter((id) => feeds.has(id)),
  };
}

function present(
  gateway: { id: string; name: string },
  row: local.LocalControlsRow | null,
  input: EngineInput,
): LocalControlsView {
  const controls = current(row?.controls ?? NO_CONTROLS, input);
  const byId = new Map(input.policies.map((p) => [p.id, p]));
  return {
    ...controls,
    gatewayId: gateway.id,
    name: gateway.name,
    policies: controls.policyIds.flatMap((id) => {
      const policy = byId.get(id);
      return policy ? [{ id, name: policy.name, type: policy.type, enabled: policy.enabled }] : [];
    }),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export function listLocalControls(database: Database, ctx: Ctx) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const input = await loadEngineInput(tx, tenantId);
    const rows = new Map(
      (await local.localControlsOfTenant(tx, tenantId)).map((row) => [row.gatewayId, row]),
    );
    const sites = (await repo.activeGateways(tx, tenantId)).filter((g) => isSiteKind(g.kind));
    return { items: sites.map((site) => present(site, rows.get(site.id) ?? null, input)) };
  });
}

export function getLocalControls(database: Database, ctx: Ctx, id: string) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const gateway = await siteGateway(tx, tenantId, id);
    return present(
      gateway,
      await local.localControlsOf(tx, tenantId, id),
      await loadEngineInput(tx, tenantId),
    );
  });
}

export function putLocalControls(database: Database, ctx: Ctx, id: string, controls: LocalControls) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const gateway = await siteGateway(tx, tenantId, id);
    const input = await loadEngineInput(tx, tenantId);
    const known = current(controls, input);
    const details: ErrorDetail[] = [];
    const refuse = (field: keyof LocalControls, message: string) =>
      controls[field].forEach((value, i) => {
        if (!(known[field] as string[]).includes(value))
          details.push({ path: `body.${field}.${i}`, message });
      });
    refuse('policyIds', 'validation.unknownPolicy');
    refuse('categories', 'validation.unknownCategory');
    refuse('feeds', 'validation.unknownFeed');
    const qos = new Set(input.policies.filter((p) => p.type === 'qos').map((p) => p.id));
    controls.policyIds.forEach((policyId, i) => {
      if (qos.has(policyId)) details.push({ path: `body.policyIds.${i}`, message: 'validation.qosNotLocal' });
    });
    if (details.length > 0) throw invalid(details);
    const before = await local.localControlsOf(tx, tenantId, id);
    await markPolicyChanged(tx, tenantId);
    await local.saveLocalControls(tx, { tenantId, gatewayId: id, controls, updatedBy: ctx.actor.id });
    await recordEvent(tx, ctx, {
      action: 'gateway.localControls',
      objectType: 'gateway',
      objectId: id,
      objectName: gateway.name,
      before: before?.controls ?? NO_CONTROLS,
      after: controls,
    });
    return present(gateway, await local.localControlsOf(tx, tenantId, id), input);
  });
}

/** Every site gateway's saved controls (the bundle reads them with the policy version they belong to). */
export async function localControlsByGateway(tx: Tx, tenantId: string): Promise<Map<string, LocalControls>> {
  return new Map(
    (await local.localControlsOfTenant(tx, tenantId)).map((row) => [row.gatewayId, row.controls]),
  );
}

const rule = (id: string, name: string, fields: Partial<PolicyRule>): PolicyRule => ({
  id,
  name,
  type: 'dmn',
  url: '',
  action: 'block',
  target: '',
  ports: '',
  categories: [],
  feeds: [],
  locations: [],
  schedule: null,
  enabled: true,
  issysgen: false,
  ...fields,
});

/**
 * The engine input a site gateway enforces for its LANs: the chosen policies (for everyone on the LANs: the
 * gateway cannot tell users apart there), then one policy of the blocked categories, feeds and countries.
 */
export function localInput(input: EngineInput, controls: LocalControls): EngineInput {
  const chosen = current(controls, input);
  const byId = new Map(input.policies.map((p) => [p.id, p]));
  const policies: EnginePolicy[] = chosen.policyIds.flatMap((id) => {
    const policy = byId.get(id);
    return policy ? [{ ...policy, appliesTo: null }] : [];
  });
  const rules: PolicyRule[] = [];
  if (chosen.categories.length > 0)
    rules.push(rule('local-categories', 'Blocked web categories', { categories: chosen.categories }));
  if (chosen.feeds.length > 0) {
    rules.push(rule('local-feeds-dns', 'Malicious sites (names)', { feeds: chosen.feeds }));
    rules.push(
      rule('local-feeds-net', 'Malicious sites (addresses)', { type: 'ROUTE', feeds: chosen.feeds }),
    );
  }
  if (chosen.countries.length > 0)
    rules.push(rule('local-geo', 'Blocked countries', { type: 'GEO', url: chosen.countries.join(';') }));
  if (rules.length > 0) {
    // Decided first: what the site blocks cannot be allowed by a chosen policy.
    policies.unshift({
      id: 'local-controls',
      name: 'Local controls',
      type: 'other',
      enabled: true,
      precedence: Number.MIN_SAFE_INTEGER,
      rules,
      appliesTo: null,
    });
  }
  return { policies, objects: input.objects };
}

/** A site's LAN and VLAN interfaces as its site artefacts name them (LAN n is `lan<n-1>`, VLANs `lan<n-1>.<id>`). */
export function lanInterfaces(config: SiteConfig | null | undefined): string[] {
  if (!config || config.lans.length === 0) return ['lan0'];
  return [
    ...config.lans.map((lan) => `lan${lan.id - 1}`),
    ...config.vlans.map((vlan) => `lan${vlan.lanId - 1}.${vlan.vlanId}`),
  ];
}

const compiled = new Map<string, { nftables: string; rpz: string }>();
const COMPILED_KEPT = 500;

/**
 * The local artefacts of one gateway, compiled once per tenant bundle, controls and interfaces (every heartbeat
 * and long-poll asks for the gateway's version).
 */
export function localArtefacts(
  bundleVersion: string,
  input: EngineInput,
  controls: LocalControls,
  interfaces: string[],
): { nftables: string; rpz: string } {
  const key = JSON.stringify([bundleVersion, controls, interfaces]);
  const hit = compiled.get(key);
  if (hit) return hit;
  const own = localInput(input, controls);
  const artefacts = {
    nftables: nftablesRuleset(own, {
      table: 'palisade_local',
      interfaces,
      lookupCountryRanges: countryRanges,
    }).text,
    rpz: rpzZone(own, { serial: 1, origin: 'rpz-local.palisade.' }).text,
  };
  if (compiled.size >= COMPILED_KEPT) compiled.clear();
  compiled.set(key, artefacts);
  return artefacts;
}
