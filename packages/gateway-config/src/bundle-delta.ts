/**
 * Bundles on the wire as deltas: a gateway holding version N gets what changed to N+1, line by line per part,
 * instead of the whole bundle (35.8 MB at 100 000 rules, of which a one-rule change touches a few lines).
 *
 * A bundle is seen as **parts**, each a text: every string artefact (`artefacts.nftables`, `artefacts.site.nftables`,
 * …) and top-level string as it is, every other value (the engine input `policy`, `skipped`, `identities`) as JSON
 * with one value a line (`JSON.stringify(value, null, 1)`, parsed back exactly). A delta names the parts of the new
 * version, carries per changed part its line edits (or its whole text) and the SHA-256 of the result
 * ({@link bundleDigest}); the gateway applies it to the copy it holds and checks the digest before it applies
 * anything, else it fetches the full bundle.
 *
 * **The diff is our own** (Myers' O(ND) line diff, below) rather than jsdiff, which the server uses for its
 * unified diffs: the gateway applies deltas and so carries this module, and a patch is 15 lines; jsdiff keeps
 * a change object per run of lines and would be a dependency of the gateway for a 40-line algorithm. Past
 * {@link MAX_DELTA_EDITS} changed lines a part is sent whole (a delta that large saves nothing).
 */
import { createHash } from 'node:crypto';

/** The instance manipulation a gateway asks for with `A-IM` and a delta answer names in `IM` (RFC 3229). */
export const BUNDLE_DELTA_IM = 'palisade-lines';
/** The delta answer's content type (status 226 IM Used, `Delta-Base: "<N>"`). */
export const BUNDLE_DELTA_CONTENT_TYPE = 'application/vnd.palisade.bundle-delta+json';
/** Beyond this many changed lines in a part, the part is sent whole. */
export const MAX_DELTA_EDITS = 2_000;
/** Line comparisons one part's diff may take (about 100 ms). */
const MAX_DIFF_WORK = 20_000_000;

/** Replace `deleteCount` lines of the old text from line `start` (0-based) with `insert`. */
export type LineHunk = [start: number, deleteCount: number, insert: string[]];
/** A changed part: its edits against the base, or its whole new text. */
export type PartDelta = { hunks: LineHunk[] } | { text: string };

export interface BundleDelta {
  /** The version it applies to (the gateway's). */
  from: string;
  /** The version it makes. */
  version: string;
  /** {@link bundleDigest} of the parts it makes. */
  sha256: string;
  /** Every part of the new version, in order; a part not in `parts` is the base's unchanged. */
  names: string[];
  parts: Record<string, PartDelta>;
}

/** The line edits making `to` of `from`; null past `maxEdits` changed lines. */
export function diffLines(from: string, to: string, maxEdits = MAX_DELTA_EDITS): LineHunk[] | null {
  const a = from.split('\n');
  const b = to.split('\n');
  // Common head and tail first: a one-rule change is two short runs in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  // v[k + offset]: the furthest x on diagonal k (x - y = k); the part of it step d reads is kept for the way back.
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let work = 0;
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[k - 1 + offset] < v[k + 1 + offset]);
      let x = down ? v[k + 1 + offset] : v[k - 1 + offset] + 1;
      let y = x - k;
      while (x < n && y < m && a[head + x] === b[head + y]) {
        x++;
        y++;
      }
      work += x - (down ? v[k + 1 + offset] : v[k - 1 + offset] + 1) + 1;
      v[k + offset] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    // Scattered changes all over a long text: sent whole rather than diffed for seconds.
    if (work > MAX_DIFF_WORK) return null;
  }
  if (found < 0) return null;
  // Back from (n, m): each step is one deleted (x-1) or one inserted (y-1) line, after a run of equal ones.
  const edits: { x: number; y: number; isInsert: boolean }[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const before = trace[d];
    const at = (k: number) => before[k + d];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    edits.push({ x: prevX, y: prevY, isInsert: down });
    x = prevX;
    y = prevY;
  }
  edits.reverse();
  const hunks: LineHunk[] = [];
  for (const edit of edits) {
    const start = head + edit.x;
    const last = hunks.at(-1);
    // Adjacent edits (no equal line between) make one hunk.
    const hunk = last && last[0] + last[1] === start ? last : ([start, 0, []] as LineHunk);
    if (hunk !== last) hunks.push(hunk);
    if (edit.isInsert) hunk[2].push(b[head + edit.y]);
    else hunk[1]++;
  }
  return hunks;
}

/** `text` with the hunks applied (in order, each against the original lines). */
export function patchLines(text: string, hunks: readonly LineHunk[]): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let at = 0;
  for (const [start, deleteCount, insert] of hunks) {
    if (start < at || start + deleteCount > lines.length) throw new Error('delta does not fit its base');
    for (; at < start; at++) out.push(lines[at]);
    for (const line of insert) out.push(line);
    at += deleteCount;
  }
  for (; at < lines.length; at++) out.push(lines[at]);
  return out.join('\n');
}

const JSON_SUFFIX = '#json';
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A bundle's parts: strings as they are, the `artefacts` object's members by their path (`artefacts.site.nftables`),
 * every other value as one-value-a-line JSON under `<name>#json`. Undefined members are left out.
 */
export function bundleParts(bundle: Readonly<Record<string, unknown>>): Record<string, string> {
  const parts: Record<string, string> = {};
  const add = (path: string, value: unknown, isArtefact: boolean) => {
    if (value === undefined) return;
    if (typeof value === 'string') parts[path] = value;
    else if (isArtefact && isRecord(value)) {
      for (const [key, member] of Object.entries(value)) add(`${path}.${key}`, member, true);
    } else parts[`${path}${JSON_SUFFIX}`] = JSON.stringify(value, null, 1);
  };
  for (const [key, value] of Object.entries(bundle)) add(key, value, key === 'artefacts');
  return parts;
}

/** The bundle object of its parts (the inverse of {@link bundleParts}). */
export function bundleFromParts(parts: Readonly<Record<string, string>>): Record<string, unknown> {
  const bundle: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(parts)) {
    const isJson = name.endsWith(JSON_SUFFIX);
    const path = (isJson ? name.slice(0, -JSON_SUFFIX.length) : name).split('.');
    let into = bundle;
    for (const key of path.slice(0, -1)) {
      if (!isRecord(into[key])) into[key] = {};
      into = into[key] as Record<string, unknown>;
    }
    into[path[path.length - 1]] = isJson ? JSON.parse(text) : text;
  }
  return bundle;
}

/** The SHA-256 (hex) of one part's text. */
export const partHash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The SHA-256 of a bundle's parts: of each part's name and SHA-256, in the order of the names — so the server
 * hashes a shared 35 MB part once per version, not once per gateway. `hashOf` may answer a part's hash from a
 * cache.
 */
export function bundleDigest(
  parts: Readonly<Record<string, string>>,
  hashOf: (name: string, text: string) => string = (_name, text) => partHash(text),
): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(parts).sort()) hash.update(`${name}\n${hashOf(name, parts[name])}\n`);
  return hash.digest('hex');
}

/** How `to` differs from `from`: undefined when equal, else its edits (or its whole text when shorter). */
export function partDelta(
  from: string | undefined,
  to: string,
  maxEdits = MAX_DELTA_EDITS,
): PartDelta | undefined {
  if (from === to) return undefined;
  const hunks = from === undefined ? null : diffLines(from, to, maxEdits);
  if (!hunks) return { text: to };
  const size = hunks.reduce(
    (sum, [, , insert]) => sum + 16 + insert.reduce((s, line) => s + line.length + 3, 0),
    0,
  );
  return size < to.length ? { hunks } : { text: to };
}

/** The delta from the parts of version `from` to those of `version` (digest computed unless given). */
export function makeDelta(
  base: { version: string; parts: Readonly<Record<string, string>> },
  next: { version: string; parts: Readonly<Record<string, string>>; sha256?: string },
): BundleDelta {
  const parts: Record<string, PartDelta> = {};
  for (const [name, text] of Object.entries(next.parts)) {
    const delta = partDelta(base.parts[name], text);
    if (delta) parts[name] = delta;
  }
  return {
    from: base.version,
    version: next.version,
    sha256: next.sha256 ?? bundleDigest(next.parts),
    names: Object.keys(next.parts),
    parts,
  };
}

/**
 * The parts a delta makes of the base's, checked against its digest: throws when the delta does not fit (a
 * part it leaves unchanged is missing, a hunk past the end) or the result's digest differs.
 */
export function applyDelta(
  base: Readonly<Record<string, string>>,
  delta: BundleDelta,
): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const name of delta.names) {
    const change = delta.parts[name];
    const old = base[name];
    if (change && 'text' in change) parts[name] = change.text;
    else if (old === undefined) throw new Error(`delta: the base has no part ${name}`);
    else parts[name] = change ? patchLines(old, change.hunks) : old;
  }
  if (bundleDigest(parts) !== delta.sha256) throw new Error('delta: the result does not match its SHA-256');
  return parts;
}
