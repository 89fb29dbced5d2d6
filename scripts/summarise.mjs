// Sums the JSON reports of every Vitest run and the Playwright run into one closing line. A pass that could not
// run leaves a `<name>.skipped` record instead of a report; it counts as skipped with the number of tests it
// would have run, so a missing service can never shrink the line to "0 skipped".
//
//   node scripts/summarise.mjs DIR                          print the closing line (exit 1: see `problems`)
//   node scripts/summarise.mjs skip FILE pass=NAME reason=WHY [like=REPORT] [files=a.ts,b.ts] [listed=LIST.json]
//                                                           record a skipped pass
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @typedef {object} SkippedPass A pass that could not run, as recorded by `skip`.
 * @property {string} pass Its name as people know it: PostgreSQL, Redis, browser.
 * @property {string} reason Why it could not run.
 * @property {string} [like] The Vitest report (name without `.json`) of a pass that ran the same test files.
 * @property {string[]} [files] Only these files of `like` (paths from the repository root).
 * @property {number} [tests] How many tests it would have run, when known up front.
 */

/** Tests in a Playwright JSON report (a `--list` report included): every test of every spec, nested suites too. */
export function countPlaywrightTests(report) {
  const walk = (suite) =>
    (suite.specs ?? []).reduce((n, spec) => n + (spec.tests ?? []).length, 0) +
    (suite.suites ?? []).reduce((n, child) => n + walk(child), 0);
  return (report.suites ?? []).reduce((n, suite) => n + walk(suite), 0);
}

/** How many tests a skipped pass would have run, or null when nothing says. */
function wouldHaveRun(dir, entry) {
  if (typeof entry.tests === 'number') return entry.tests;
  const file = entry.like && join(dir, `${entry.like}.json`);
  if (!file || !existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (!entry.files) return report.numTotalTests ?? null;
  let count = 0;
  for (const wanted of entry.files) {
    const result = (report.testResults ?? []).find((r) =>
      r.name.replaceAll('\\', '/').endsWith(`/${wanted}`),
    );
    if (!result) return null;
    count += result.assertionResults.length;
  }
  return count;
}

/**
 * Totals over a directory of reports.
 * @param {string} dir Vitest JSON reports (`*.json`), the Playwright one (`e2e-report.json`), skipped passes
 *   (`*.skipped`).
 * @param {{ CI?: string }} env With `CI=true` a skipped pass is a problem: CI must run every pass.
 * @returns {{ passed: number, failed: number, skipped: number,
 *   skippedPasses: Array<SkippedPass & { count: number | null }>, problems: string[] }}
 */
export function summarise(dir, env = {}) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const files = readdirSync(dir).sort();
  for (const file of files.filter((f) => f.endsWith('.json') && f !== 'e2e-report.json')) {
    const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  const e2e = join(dir, 'e2e-report.json');
  if (existsSync(e2e)) {
    const stats = JSON.parse(readFileSync(e2e, 'utf8')).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
  }
  const skippedPasses = [];
  const problems = [];
  for (const file of files.filter((f) => f.endsWith('.skipped'))) {
    const entry = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const count = wouldHaveRun(dir, entry);
    skippedPasses.push({ ...entry, count });
    if (count === null)
      problems.push(`cannot tell how many tests the skipped ${entry.pass} pass would have run`);
    else skipped += count;
    if (env.CI === 'true') {
      problems.push(`CI=true: the ${entry.pass} pass was skipped (${entry.reason}); CI must run every pass`);
    }
  }
  return { passed, failed, skipped, skippedPasses, problems };
}

/**
 * Where the time went: each pass of `npm test` (`passes.tsv`: name TAB seconds, written by scripts/test.sh) and
 * the `count` slowest test files over every Vitest report (a file's start to end) and the Playwright one (a
 * spec file's tests' durations summed), each with the report it comes from.
 * @returns {{ passes: { name: string, seconds: number }[], slowest: { file: string, report: string, seconds: number }[] }}
 */
export function timings(dir, count = 15) {
  const passesFile = join(dir, 'passes.tsv');
  const passes = existsSync(passesFile)
    ? readFileSync(passesFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [name, seconds] = line.split('\t');
          return { name, seconds: Number(seconds) };
        })
    : [];
  const files = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'e2e-report.json')) {
    const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const r of report.testResults ?? []) {
      if (typeof r.startTime !== 'number' || typeof r.endTime !== 'number') continue;
      files.push({
        file: r.name,
        report: file.replace(/\.json$/, ''),
        seconds: (r.endTime - r.startTime) / 1000,
      });
    }
  }
  const e2e = join(dir, 'e2e-report.json');
  if (existsSync(e2e)) {
    const bySpec = new Map();
    const walk = (suite, file) => {
      const at = suite.file ?? file;
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          for (const result of test.results ?? []) {
            const key = spec.file ?? at ?? suite.title;
            bySpec.set(key, (bySpec.get(key) ?? 0) + (result.duration ?? 0) / 1000);
          }
        }
      }
      for (const child of suite.suites ?? []) walk(child, at);
    };
    for (const suite of JSON.parse(readFileSync(e2e, 'utf8')).suites ?? []) walk(suite, undefined);
    for (const [file, seconds] of bySpec) files.push({ file, report: 'e2e', seconds });
  }
  const root = `${process.cwd().replaceAll('\\', '/')}/`;
  const slowest = files
    .map((f) => ({ ...f, file: f.file.replaceAll('\\', '/').replace(root, '') }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
  return { passes, slowest };
}

/** The timing lines printed before the closing line. */
export function timingLines({ passes, slowest }) {
  const minutes = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
  const lines = [];
  if (passes.length > 0) {
    const total = passes.reduce((n, p) => n + p.seconds, 0);
    lines.push(`time per pass (m:ss), ${minutes(total)} in all:`);
    for (const p of passes) lines.push(`  ${minutes(p.seconds).padStart(6)}  ${p.name}`);
  }
  if (slowest.length > 0) {
    lines.push(`the ${slowest.length} slowest test files (s):`);
    for (const f of slowest) lines.push(`  ${f.seconds.toFixed(1).padStart(6)}  ${f.file} (${f.report})`);
  }
  return lines;
}

/** The last line of `npm test`. */
export function closingLine({ passed, failed, skipped }) {
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/** `skip FILE key=value…`: writes the record of a skipped pass. */
function recordSkipped(file, args) {
  const entry = {};
  for (const arg of args) {
    const at = arg.indexOf('=');
    const [key, value] = [arg.slice(0, at), arg.slice(at + 1)];
    if (key === 'files') entry.files = value.split(',');
    else if (key === 'listed') entry.tests = countPlaywrightTests(JSON.parse(readFileSync(value, 'utf8')));
    else entry[key] = value;
  }
  writeFileSync(file, JSON.stringify(entry));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, ...rest] = process.argv.slice(2);
  if (first === 'skip') {
    recordSkipped(rest[0], rest.slice(1));
  } else {
    const totals = summarise(first, process.env);
    for (const p of totals.skippedPasses) {
      const tests =
        p.count === null ? 'an unknown number of tests' : `${p.count} test${p.count === 1 ? '' : 's'}`;
      console.info(`skipped: the ${p.pass} pass (${tests}): ${p.reason}`);
    }
    for (const problem of totals.problems) console.error(`!! ${problem}`);
    const times = timingLines(timings(first));
    if (times.length > 0) console.info(`\n${times.join('\n')}`);
    console.info(`\n${closingLine(totals)}`);
    process.exitCode = totals.problems.length > 0 ? 1 : 0;
  }
}
