import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Dates, times, relative times and durations are written by lib/format-time.ts only (issue 24 §3): a screen that
// builds its own Intl format shows its own variant and builds the format anew on every render. This test fails
// with the file and line of every new copy.

const SRC_DIR = join(__dirname, '..');
const MODULE = 'lib/format-time.ts';

/** What a copy looks like, and what to use instead. */
const FORBIDDEN: Array<{ pattern: RegExp; use: string }> = [
  { pattern: /Intl\.DateTimeFormat\s*\(/, use: 'formatDate, formatDateTime, formatTime or formatDateFields' },
  { pattern: /Intl\.RelativeTimeFormat\s*\(/, use: 'formatRelativeTime or <RelativeTime>' },
  { pattern: /Intl\.DurationFormat\b/, use: 'formatDuration' },
  {
    pattern: /\.toLocale(Date|Time)?String\s*\(/,
    use: 'the format-time functions (formatNumber for numbers)',
  },
  { pattern: /\bunit:\s*['"`](second|minute|hour|day|week|month|year)s?['"`]/, use: 'formatDuration' },
  {
    pattern:
      /import\s*\{[^}]*\b(formatRelativeTime|formatDurationText|relativeTime)\b[^}]*\}\s*from\s*'@palisade\/contracts'/,
    use: 'lib/format-time (which builds on these)',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every forbidden use in `text` as `line: what to use`; imports are matched over several lines. */
function findCopies(text: string): string[] {
  const found: string[] = [];
  for (const { pattern, use } of FORBIDDEN) {
    const global = new RegExp(pattern.source, 'g');
    for (const match of text.matchAll(global)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`${line}: ${match[0].replace(/\s+/g, ' ')} (use ${use})`);
    }
  }
  return found;
}

describe('date and time formatting', () => {
  it('finds each kind of copy', () => {
    expect(findCopies("const f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });")).toHaveLength(1);
    expect(findCopies('new Intl.RelativeTimeFormat(locale).format(-1, "day")')).toHaveLength(1);
    expect(
      findCopies('date.toLocaleDateString(locale)\nat.toLocaleString()\nx.toLocaleTimeString()'),
    ).toHaveLength(3);
    expect(findCopies("new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour' })")).toHaveLength(1);
    expect(
      findCopies("import {\n  type Gateway,\n  formatRelativeTime,\n} from '@palisade/contracts';"),
    ).toHaveLength(1);
    // Types, other units and the module's own names are fine.
    expect(findCopies('const o: Intl.DateTimeFormatOptions = {};')).toEqual([]);
    expect(findCopies("new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond' })")).toEqual([]);
    expect(findCopies("import { formatRelativeTime } from '../../../lib/format-time';")).toEqual([]);
  });

  it(`happens in ${MODULE} only`, () => {
    const files = sourceFiles(SRC_DIR).filter((file) => relative(SRC_DIR, file) !== MODULE);
    expect(files.length).toBeGreaterThan(300);
    const copies = files.flatMap((file) =>
      findCopies(readFileSync(file, 'utf8')).map((copy) => `${relative(SRC_DIR, file)}:${copy}`),
    );
    expect(copies).toEqual([]);
  });
});
