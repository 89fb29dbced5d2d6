import { DEFAULT_GEO_RULE_NAME, type PolicyRule, type RuleAction, type RuleType } from '@palisade/contracts';
import type { EngineObjects, EnginePolicy } from '@palisade/policy-engine/types';
import type { Tx } from '../../db/client';
import { APP_CATALOG } from './data/app-catalog';
import { SHIPPED_CATEGORIES } from './data/categories';
import { allFeeds } from './feeds';
import * as repo from './policy-objects.repository';

// What policy-core reads of this module's state: the objects rules refer to and the system policies derived from
// the object screens (loadPolicyObjects). Only policy-core imports this file (the lint says so).

/**
 * Precedences of the derived system policies: threat intel, blocked apps and blocked countries before every
 * tenant rule (a blocked country is blocked whatever a tenant's route or allow rule says, at the gateway as in
 * the simulator), web categories after them, and the default geo rule last (the network layer's default).
 */
export const SYSTEM_PRECEDENCE = {
  threatIntel: -2_000_000,
  blockedApps: -1_000_000,
  geo: -500_000,
  webCategories: 1_000_000_000,
  defaultGeo: 2_000_000_000,
} as const;

export const SYSTEM_POLICY_IDS = {
  threatIntel: 'system-threat-intel',
  blockedApps: 'system-blocked-apps',
  webCategories: 'system-web-categories',
  geo: 'system-geo',
  defaultGeo: 'system-default-geo',
} as const;

/**
 * The default geo rule (last, allowing every country): what decides the network layer when nothing else matches
 * there, so a decision it "made" is the default; policy-core names no rule for it.
 */
export const DEFAULT_GEO_RULE_ID = 'system-default-geo';

/** Names the web translates (every name starting with `system:`). */
export const SYSTEM_POLICY_NAMES = {
  threatIntel: 'system:threatIntel',
  blockedApps: 'system:blockedApps',
  webCategories: 'system:webCategories',
  geo: 'system:geoControls',
  defaultGeo: 'system:defaultGeo',
} as const;

function systemRule(
  id: string,
  name: string,
  type: RuleType,
  action: RuleAction,
  extra: Partial<Pick<PolicyRule, 'url' | 'categories' | 'feeds'>> = {},
): PolicyRule {
  return {
    id,
    name,
    type,
    url: extra.url ?? '',
    action,
    target: '',
    ports: '',
    categories: extra.categories ?? [],
    feeds: extra.feeds ?? [],
    locations: [],
    schedule: null,
    enabled: true,
    issysgen: true,
  };
}

function systemPolicy(key: keyof typeof SYSTEM_POLICY_IDS, rules: PolicyRule[]): EnginePolicy {
  return {
    id: SYSTEM_POLICY_IDS[key],
    name: SYSTEM_POLICY_NAMES[key],
    type: 'other',
    enabled: true,
    precedence: SYSTEM_PRECEDENCE[key],
    system: true,
    rules,
    appliesTo: null,
    // Threat intelligence (feeds, security categories) answers NXDOMAIN: safer for malware than a page.
    blockPage: key !== 'threatIntel',
  };
}

/**
 * Everything the object screens contribute to a tenant's policy: the objects rules refer to (catalog and
 * custom apps, shipped and custom categories, built-in and tenant feeds — disabled feeds with no entries, so
 * references still resolve — and locations) and the system policies derived from the tenant's settings:
 *
 * - `system-threat-intel` (first): per enabled feed a DNS block rule on its domains and an `IP rule` on its IPs;
 *   then the tenant's actions on security categories (malware, phishing…), which the contract places before
 *   the tenant's own rules.
 * - `system-blocked-apps`: one app rule blocking every app blocked for the whole tenant.
 * - `system-web-categories` (after the tenant's rules): the allow/block action of each content or custom category.
 * - `system-geo` (before the tenant's rules): the blocked countries; `system-default-geo` (last): the default
 *   geo rule allowing every country.
 *
 * Rule ids are deterministic, so traces and tests can name them.
 */
export async function loadPolicyObjects(
  tx: Tx,
  tenantId: string,
): Promise<{ objects: EngineObjects; systemPolicies: EnginePolicy[] }> {
  // One query after the other: a transaction is one connection, and pg will refuse overlapping queries.
  const locations = await repo.listLocations(tx, tenantId);
  const customApps = await repo.listCustomApps(tx, tenantId);
  const customCategories = await repo.listCustomCategories(tx, tenantId);
  const feeds = await allFeeds(tx, tenantId);
  const actions = await repo.listCategoryActions(tx, tenantId);
  const blockedApps = await repo.listBlockedApps(tx, tenantId);
  const blockedCountries = await repo.listGeoBlocked(tx, tenantId);

  const objects: EngineObjects = {
    apps: [
      ...APP_CATALOG.map((a) => ({ appid: a.appid, appname: a.appname, domains: a.domains, ips: a.ips })),
      ...customApps.map((a) => ({ appid: a.appid, appname: a.appname, domains: a.domains, ips: a.ips })),
    ],
    categories: [
      ...SHIPPED_CATEGORIES.map((c) => ({ id: c.id, name: c.name, domains: c.domains })),
      ...customCategories.map((c) => ({ id: c.id, name: c.name, domains: c.domains, custom: true })),
    ],
    feeds: feeds.map((f) => ({
      id: f.id,
      name: f.name,
      domains: f.enabled ? f.domains : [],
      ips: f.enabled ? f.ips : [],
    })),
    locations: locations.map((l) => ({ id: l.id, name: l.name, networks: l.networks })),
  };

  const threatRules: PolicyRule[] = [];
  for (const feed of feeds) {
    if (!feed.enabled) continue;
    if (feed.domains.length > 0) {
      threatRules.push(
        systemRule(`system-threat-intel-${feed.id}-domains`, `Threat intel: ${feed.name}`, 'dmn', 'block', {
          feeds: [feed.id],
        }),
      );
    }
    if (feed.ips.length > 0) {
      threatRules.push(
        systemRule(`system-threat-intel-${feed.id}-ips`, `IP rule: ${feed.name}`, 'ROUTE', 'block', {
          feeds: [feed.id],
        }),
      );
    }
  }

  const categoryNames = new Map<string, { name: string; isSecurity: boolean }>([
    ...SHIPPED_CATEGORIES.map((c) => [c.id, { name: c.name, isSecurity: c.class === 'security' }] as const),
    ...customCategories.map((c) => [c.id, { name: c.name, isSecurity: false }] as const),
  ]);
  const categoryRules: PolicyRule[] = [];
  // Shipped order first (security, then content classes), then custom categories by name.
  for (const [id, category] of categoryNames) {
    const action = actions.get(id);
    if (!action) continue;
    const rule = systemRule(`system-category-${id}`, `Category: ${category.name}`, 'dmn', action, {
      categories: [id],
    });
    (category.isSecurity ? threatRules : categoryRules).push(rule);
  }

  const blockedAppRules =
    blockedApps.length > 0
      ? [
          systemRule('system-blocked-apps', 'Blocked apps', 'app', 'block', {
            url: blockedApps.join(';'),
          }),
        ]
      : [];
  const geoRules =
    blockedCountries.length > 0
      ? [
          systemRule('system-geo-block', 'Blocked countries', 'GEO', 'block', {
            url: blockedCountries.join(';'),
          }),
        ]
      : [];

  return {
    objects,
    systemPolicies: [
      systemPolicy('threatIntel', threatRules),
      systemPolicy('blockedApps', blockedAppRules),
      systemPolicy('geo', geoRules),
      systemPolicy('webCategories', categoryRules),
      systemPolicy('defaultGeo', [
        systemRule(DEFAULT_GEO_RULE_ID, DEFAULT_GEO_RULE_NAME, 'GEO', 'allow', { url: '*' }),
      ]),
    ],
  };
}
