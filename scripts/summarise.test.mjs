import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closingLine, countPlaywrightTests, summarise, timingLines, timings } from './summarise.mjs';

const SCRIPT = join(import.meta.dirname, 'summarise.mjs');
const RATE_LIMIT = 'apps/server/src/plugins/rate-limit.test.ts';

/** A Vitest JSON report: one file per entry of `files` ([path, passed, failed]). */
function vitestReport(files) {
  const passed = files.reduce((n, [, p]) => n + p, 0);
  const failed = files.reduce((n, [, , f]) => n + f, 0);
  return {
    numTotalTests: passed + failed,
    numPassedTests: passed,
    numFailedTests: failed,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: files.map(([path, p, f]) => ({
      name: `/repo/${path}`,
      assertionResults: [
        ...Array.from({ length: p }, () => ({ status: 'passed' })),
        ...Array.from({ length: f }, () => ({ status: 'failed' })),
      ],
    })),
  };
}

/** A Playwright `--list --reporter=json` report: 3 tests in nested suites, one spec run in two projects. */
const PLAYWRIGHT_LIST = {
  suites: [
    { title: 'a.spec.ts', specs: [{ title: 'one', tests: [{}] }] },
    {
      title: 'b.spec.ts',
      specs: [],
      suites: [{ title: 'group', specs: [{ title: 'two', tests: [{}, {}] }] }],
    },
  ],
  stats: { expected: 0, skipped: 3, unexpected: 0, flaky: 0 },
};

let dir;
const write = (name, content) => writeFileSync(join(dir, name), JSON.stringify(content));
const record = (name, ...args) => execFileSync('node', [SCRIPT, 'skip', join(dir, name), ...args]);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'summarise-'));
  write('unit.json', vitestReport([['packages/x.test.ts', 5, 0]]));
  write(
    'server-pglite.json',
    vitestReport([
      [RATE_LIMIT, 2, 0],
      ['apps/server/src/a.test.ts', 7, 1],
    ]),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the closing line of npm test', () => {
  it('sums passed, failed and skipped over every report', () => {
    write('e2e-report.json', { stats: { expected: 3, flaky: 1, unexpected: 1, skipped: 2 } });
    expect(closingLine(summarise(dir))).toBe('tests: 18 passed, 2 failed, 2 skipped');
  });

  it('counts a skipped PostgreSQL pass as every test of the PGlite pass, and a skipped Redis pass as its file', () => {
    record('server-postgres.skipped', 'pass=PostgreSQL', 'reason=no PostgreSQL at :1', 'like=server-pglite');
    record(
      'server-redis.skipped',
      'pass=Redis',
      'reason=no Redis at :1',
      'like=server-pglite',
      `files=${RATE_LIMIT}`,
    );
    const totals = summarise(dir);
    expect(closingLine(totals)).toBe('tests: 14 passed, 1 failed, 12 skipped');
    expect(totals.skippedPasses.map((p) => [p.pass, p.count, p.reason])).toEqual([
      ['PostgreSQL', 10, 'no PostgreSQL at :1'],
      ['Redis', 2, 'no Redis at :1'],
    ]);
    expect(totals.problems).toEqual([]);
  });

  it('counts a skipped browser pass as the tests Playwright lists', () => {
    const listed = join(dir, 'list.out');
    writeFileSync(listed, JSON.stringify(PLAYWRIGHT_LIST));
    expect(countPlaywrightTests(PLAYWRIGHT_LIST)).toBe(3);
    record('e2e.skipped', 'pass=browser', 'reason=no chromium', `listed=${listed}`);
    expect(JSON.parse(readFileSync(join(dir, 'e2e.skipped'), 'utf8'))).toMatchObject({
      pass: 'browser',
      tests: 3,
    });
    expect(closingLine(summarise(dir))).toBe('tests: 14 passed, 1 failed, 3 skipped');
  });

  it('is a problem when the tests of a skipped pass cannot be counted', () => {
    record(
      'server-redis.skipped',
      'pass=Redis',
      'reason=down',
      'like=server-pglite',
      'files=apps/gone.test.ts',
    );
    expect(summarise(dir).problems).toEqual([
      'cannot tell how many tests the skipped Redis pass would have run',
    ]);
  });

  it('fails the run with CI=true when a pass was skipped, naming the pass and why', () => {
    record('server-postgres.skipped', 'pass=PostgreSQL', 'reason=no PostgreSQL at :1', 'like=server-pglite');
    expect(summarise(dir, {}).problems).toEqual([]);
    expect(summarise(dir, { CI: 'true' }).problems).toEqual([
      'CI=true: the PostgreSQL pass was skipped (no PostgreSQL at :1); CI must run every pass',
    ]);

    const local = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8', env: { ...process.env, CI: '' } });
    expect(local.status).toBe(0);
    expect(local.stdout.trim().split('\n').at(-1)).toBe('tests: 14 passed, 1 failed, 10 skipped');
    const ci = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    expect(ci.status).toBe(1);
    expect(ci.stderr).toContain('CI=true: the PostgreSQL pass was skipped (no PostgreSQL at :1)');
    expect(ci.stdout.trim().split('\n').at(-1)).toBe('tests: 14 passed, 1 failed, 10 skipped');
  });
});

describe('where the time went', () => {
  it('lists the passes and the slowest files of every report, slowest first, before the closing line', () => {
    const timed = (path, seconds) => ({
      name: `/repo/${path}`,
      startTime: 1_000,
      endTime: 1_000 + seconds * 1000,
    });
    write('server-pglite.json', {
      numPassedTests: 2,
      testResults: [timed('apps/server/a.test.ts', 12.34), timed('apps/server/b.test.ts', 3)],
    });
    write('unit.json', { numPassedTests: 1, testResults: [timed('packages/x.test.ts', 40)] });
    write('e2e-report.json', {
      stats: { expected: 2 },
      suites: [
        {
          title: 'journey.spec.ts',
          file: 'journey.spec.ts',
          specs: [
            { title: 'a', tests: [{ results: [{ duration: 5_000 }] }, { results: [{ duration: 2_500 }] }] },
          ],
        },
      ],
    });
    writeFileSync(join(dir, 'passes.tsv'), 'Type-check\t75\nServer integration tests on PGlite\t301\n');
    const times = timings(dir, 3);
    expect(times.passes).toEqual([
      { name: 'Type-check', seconds: 75 },
      { name: 'Server integration tests on PGlite', seconds: 301 },
    ]);
    expect(times.slowest.map((f) => [f.file.replace('/repo/', ''), f.report, f.seconds])).toEqual([
      ['packages/x.test.ts', 'unit', 40],
      ['apps/server/a.test.ts', 'server-pglite', 12.34],
      ['journey.spec.ts', 'e2e', 7.5],
    ]);
    const lines = timingLines(times);
    expect(lines[0]).toBe('time per pass (m:ss), 6:16 in all:');
    expect(lines).toContain('    5:01  Server integration tests on PGlite');
    const printed = spawnSync('node', [SCRIPT, dir], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(printed).toContain('the 4 slowest test files (s):');
    expect(printed.at(-1)).toMatch(/^tests: \d+ passed/);
  });
});
