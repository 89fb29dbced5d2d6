import {
  type ErrorDetail,
  isIpOrCidr,
  isIpv4,
  isSystemRule,
  isValidDomainOrUrl,
  MAX_PORTS_LOCATIONS,
  normaliseDomain,
  type PolicyInput,
  type PolicyType,
  type RuleType,
  splitMatcher,
} from '@palisade/contracts';
import type { EngineObjects } from '@palisade/policy-engine/types';
import type { z } from 'zod';

/**
 * A policy as the contract schema leaves it (defaults applied, strings trimmed). The options may be left out by
 * the server's own callers (seed, templates): a new policy then takes the defaults, an update keeps them.
 */
export type PolicyData = Omit<z.output<typeof PolicyInput>, 'blockPage' | 'fullTunnel'> &
  Partial<Pick<z.output<typeof PolicyInput>, 'blockPage' | 'fullTunnel'>>;
export type RuleData = PolicyData['rules'][number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A gateway (cybernode) name as rules route through it: a host-name-like label. */
const GATEWAY_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?$/;
const FILE_EXTENSION = /^\.?[a-z0-9]{1,10}$/i;
const KEYWORD = /^\S+$/;
const COUNTRY = /^[A-Za-z]{2}$/;

/** Rule types that may carry destination ports, categories and feeds (PolicyRule's field notes). */
const PORT_TYPES: readonly RuleType[] = ['ROUTE', 'app'];
const CATEGORY_TYPES: readonly RuleType[] = ['dmn', 'SQUID_DMN'];
const FEED_TYPES: readonly RuleType[] = ['dmn', 'ROUTE', 'SQUID_DMN'];

const isDomainPattern = (item: string) => item === '*' || isValidDomainOrUrl(item.replace(/^\*\./, ''));

/** `host[/path]` without whitespace, the host a domain (optionally `*.`) or an IPv4 address. */
function isUrlPattern(item: string): boolean {
  const text = item.replace(/^https?:\/\//i, '');
  const slash = text.indexOf('/');
  const host = slash < 0 ? text : text.slice(0, slash);
  const path = slash < 0 ? '' : text.slice(slash);
  if (/\s/.test(path)) return false;
  return isIpv4(host) || isValidDomainOrUrl(host.replace(/^\*\./, ''));
}

interface MatcherRule {
  check: (item: string) => boolean;
  /** How items are stored (and compared for duplicates). */
  normalise: (item: string) => string;
  message: string;
}

/** Per rule type: what a matcher item must look like, how it is stored, and the error key otherwise. */
const MATCHERS: Record<Exclude<RuleType, 'app'>, MatcherRule> = {
  ROUTE: {
    // IPv4 only by design: the engine decides IPv4 destinations (an IPv6 item would match nothing).
    check: (item) => item === '*' || isIpOrCidr(item, 4),
    normalise: (item) => item,
    message: 'policy.validation.routeMatcher',
  },
  GEO: {
    check: (item) => item === '*' || COUNTRY.test(item),
    normalise: (item) => item.toUpperCase(),
    message: 'policy.validation.country',
  },
  dmn: { check: isDomainPattern, normalise: normaliseDomain, message: 'policy.validation.domainMatcher' },
  SQUID_DMN: {
    check: isDomainPattern,
    normalise: normaliseDomain,
    message: 'policy.validation.domainMatcher',
  },
  DNS_REWRITE: {
    check: isDomainPattern,
    normalise: normaliseDomain,
    message: 'policy.validation.domainMatcher',
  },
  url: {
    check: isUrlPattern,
    normalise: (item) => {
      const text = item.replace(/^https?:\/\//i, '');
      const slash = text.indexOf('/');
      return slash < 0 ? text.toLowerCase() : text.slice(0, slash).toLowerCase() + text.slice(slash);
    },
    message: 'policy.validation.urlMatcher',
  },
  SQUID_KEYWORD: {
    check: (item) => KEYWORD.test(item),
    normalise: (item) => item,
    message: 'policy.validation.keyword',
  },
  SQUID_FILEEXT: {
    check: (item) => FILE_EXTENSION.test(item),
    normalise: (item) => item.toLowerCase(),
    message: 'policy.validation.fileExtension',
  },
};

/** The first item that occurs twice in `items` (after `key`), or null. */
function firstDuplicate(items: readonly string[], key: (s: string) => string = (s) => s): number | null {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return null;
}

export interface ValidationContext {
  type: PolicyType;
  objects: EngineObjects;
  /** Rules of the policy being replaced, by id: edited rules keep theirs, system rules cannot be sent. */
  existing?: ReadonlyMap<string, { issysgen: boolean; name: string }>;
  /** Detail paths start here (`body` for a save, `body.draft.policy` for a draft). */
  prefix?: string;
}

/**
 * The server's checks of a policy beyond its schema (the schema already checked names, types, actions per
 * type, port syntax and schedules). Returns the problems, each with its path and a translation key, and
 * the offending item in `values` where a list item is at fault; empty when the policy can be saved.
 */
export function checkPolicy(policy: PolicyData, ctx: ValidationContext): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const prefix = ctx.prefix ?? 'body';
  const apps = new Set(ctx.objects.apps.map((a) => a.appid));
  const known = {
    categories: new Set(ctx.objects.categories.map((c) => c.id)),
    feeds: new Set(ctx.objects.feeds.map((f) => f.id)),
    locations: new Set(ctx.objects.locations.map((l) => l.id)),
  };
  const unknownKey = {
    categories: 'policy.validation.unknownCategory',
    feeds: 'policy.validation.unknownFeed',
    locations: 'policy.validation.unknownLocation',
  } as const;
  const seenIds = new Set<string>();

  policy.rules.forEach((rule, i) => {
    const at = `${prefix}.rules.${i}`;
    const add = (field: string, message: string, values?: Record<string, string>) =>
      details.push({ path: `${at}.${field}`, message, ...(values ? { values } : {}) });

    if (isSystemRule({ name: rule.name, issysgen: false })) add('name', 'policy.validation.systemName');

    if (rule.id !== undefined && ctx.existing) {
      const before = ctx.existing.get(rule.id);
      if (seenIds.has(rule.id)) add('id', 'validation.duplicate', { item: rule.id });
      else if (!before) add('id', 'policy.validation.unknownRule');
      else if (isSystemRule(before)) add('id', 'policy.validation.systemRule');
      seenIds.add(rule.id);
    }

    // Actions and their targets.
    if (ctx.type === 'qos' && rule.action !== 'qos') add('action', 'policy.validation.qosPolicyAction');
    if (ctx.type !== 'qos' && rule.action === 'qos') add('action', 'policy.validation.qosAction');
    if (rule.action === 'qos') {
      if (!UUID.test(rule.target)) add('target', 'policy.validation.qosTarget');
    } else if (rule.action === 'rewrite') {
      if (!(isIpv4(rule.target) || isValidDomainOrUrl(rule.target))) {
        add('target', 'policy.validation.rewriteTarget');
      }
    } else if (rule.action === 'route') {
      if (!GATEWAY_NAME.test(rule.target)) add('target', 'policy.validation.gateway');
    } else if (rule.target !== '') {
      add('target', 'policy.validation.targetNotAllowed');
    }

    // Ports.
    if (rule.ports !== '') {
      const entries = rule.ports.split(',').map((p) => p.trim());
      if (!PORT_TYPES.includes(rule.type)) add('ports', 'policy.validation.portsNotAllowed');
      else if (entries.length > MAX_PORTS_LOCATIONS) add('ports', 'policy.validation.tooManyPorts');
      else {
        const dup = firstDuplicate(entries);
        if (dup !== null) add('ports', 'validation.duplicate', { item: entries[dup] });
      }
    }

    // Object references.
    if (rule.categories.length > 0 && !CATEGORY_TYPES.includes(rule.type)) {
      add('categories', 'policy.validation.categoriesNotAllowed');
    }
    if (rule.feeds.length > 0 && !FEED_TYPES.includes(rule.type))
      add('feeds', 'policy.validation.feedsNotAllowed');
    if (rule.locations.length > MAX_PORTS_LOCATIONS) add('locations', 'policy.validation.tooManyLocations');
    for (const field of ['categories', 'feeds', 'locations'] as const) {
      const list = rule[field];
      const dup = firstDuplicate(list);
      if (dup !== null) {
        add(`${field}.${dup}`, 'validation.duplicate', { item: list[dup] });
        continue;
      }
      const missing = list.findIndex((id) => !known[field].has(id));
      if (missing >= 0) add(`${field}.${missing}`, unknownKey[field], { id: list[missing] });
    }

    // The matcher.
    const items = splitMatcher(rule.url);
    if (items.length === 0 && rule.categories.length === 0 && rule.feeds.length === 0) {
      add('url', 'policy.validation.emptyMatcher');
      return;
    }
    if (rule.type === 'app') {
      const dup = firstDuplicate(items);
      const missing = items.find((item) => !apps.has(item));
      if (missing !== undefined) add('url', 'policy.validation.unknownApp', { item: missing });
      else if (dup !== null) add('url', 'validation.duplicate', { item: items[dup] });
      return;
    }
    const matcher = MATCHERS[rule.type];
    const bad = items.find((item) => !matcher.check(item));
    if (bad !== undefined) {
      add('url', matcher.message, { item: bad });
      return;
    }
    const dup = firstDuplicate(items, matcher.normalise);
    if (dup !== null) add('url', 'validation.duplicate', { item: items[dup] });
  });
  return details;
}

/** A rule's matcher as stored: items normalised per type and joined with `;`. */
export function normaliseMatcher(type: RuleType, url: string): string {
  const items = splitMatcher(url);
  return (type === 'app' ? items : items.map(MATCHERS[type].normalise)).join(';');
}
