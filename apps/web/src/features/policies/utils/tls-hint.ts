import { type PolicyRule, splitMatcher } from '@palisade/contracts';

/**
 * Whether a rule can match HTTPS only with TLS inspection (which the gateway does not do): keyword and
 * file-extension rules, and URL rules with a path. On HTTPS the gateway sees the site's name alone (the TLS
 * server name), so host rules apply there and path rules apply to plain HTTP only. A URL rule without any entry
 * yet counts as one with a path (what URL rules are for).
 */
export function needsTlsInspection(rule: Pick<PolicyRule, 'type' | 'url'>): boolean {
  if (rule.type === 'SQUID_KEYWORD' || rule.type === 'SQUID_FILEEXT') return true;
  if (rule.type !== 'url') return false;
  const items = splitMatcher(rule.url);
  return (
    items.length === 0 || items.some((item) => /^[^/]*\/./.test(item.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')))
  );
}
