/**
 * Host and domain helpers. Matching is by LABEL SUFFIX: `example.com` matches `example.com` and
 * `a.example.com`, never `badexample.com` nor `example.com.evil.net`.
 */

/**
 * Normalises a host as requests carry it: lower-cased, one trailing dot removed. Empty → null. Internationalised
 * names are expected in their ASCII (punycode `xn--`) form, which passes through unchanged.
 */
export function normalizeHost(host: string | null | undefined): string | null {
  if (typeof host !== 'string' || host.length === 0) return null;
  let h = host;
  if (h.charCodeAt(h.length - 1) === 46) h = h.slice(0, -1);
  if (h.length === 0) return null;
  return h.toLowerCase();
}

/**
 * Normalises one domain matcher item: trimmed, lower-cased, scheme and path dropped, a leading `*.` or `.`
 * removed (the same as the plain suffix), a trailing dot removed. `*` stays `*`. Returns null for an item that
 * is empty after that.
 */
export function normalizeDomainItem(item: string): string | null {
  if (isPlainDomain(item)) return item;
  let s = item.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const slash = s.search(/[/?#]/);
  if (slash >= 0) s = s.slice(0, slash);
  if (s === '*' || s === '*.') return '*';
  while (s.startsWith('*.')) s = s.slice(2);
  while (s.startsWith('.')) s = s.slice(1);
  while (s.endsWith('.')) s = s.slice(0, -1);
  return s.length > 0 ? s : null;
}

/** Already normal: lower-case letters, digits, `-`, `_` and inner dots only. */
function isPlainDomain(s: string): boolean {
  const n = s.length;
  if (n === 0 || s.charCodeAt(0) === 46 || s.charCodeAt(n - 1) === 46) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95)) return false;
  }
  return true;
}

/** Whether `host` equals `domain` or ends with `.domain`. Both already normalised. */
export function labelSuffixMatch(host: string, domain: string): boolean {
  const hl = host.length;
  const dl = domain.length;
  if (hl === dl) return host === domain;
  return hl > dl && host.charCodeAt(hl - dl - 1) === 46 && host.endsWith(domain);
}
