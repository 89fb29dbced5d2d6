import { isIpOrCidr, MATCHER_MAX } from '@palisade/contracts';

/** A problem with the networks a route is given: a translation key and the item at fault. */
export interface NetworksProblem {
  message: string;
  values?: Record<string, string>;
}

/** The networks typed in the form: one per line, or separated by commas (or semicolons, as rules store them). */
export function splitNetworks(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * Whether an item is a destination a route takes: an IPv4 address or CIDR block (`*` for every address). IPv4
 * only, as the server checks a ROUTE rule: the engine decides IPv4 destinations.
 */
export function isNetwork(item: string): boolean {
  return item === '*' || isIpOrCidr(item, 4);
}

/**
 * Checks the networks of the form as the server does for a ROUTE rule: at least one, each an IPv4 address or a
 * CIDR block, none twice, and the whole not longer than a rule's matcher. Null when they are fine.
 */
export function checkNetworks(text: string): NetworksProblem | null {
  const items = splitNetworks(text);
  if (items.length === 0) return { message: 'routes.validation.networksRequired' };
  const bad = items.find((item) => !isNetwork(item));
  if (bad !== undefined) return { message: 'policy.validation.routeMatcher', values: { item: bad } };
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item)) return { message: 'validation.duplicate', values: { item } };
    seen.add(item);
  }
  if (toMatcher(text).length > MATCHER_MAX) return { message: 'validation.tooLong' };
  return null;
}

/** The rule's matcher (`url`) of the form's networks: `10.20.0.0/16;10.30.0.0/16`. */
export function toMatcher(text: string): string {
  return splitNetworks(text).join(';');
}

/** The form's text of a rule's matcher: one network per line. */
export function toNetworksText(url: string): string {
  return splitNetworks(url).join('\n');
}
