import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Daemon } from './daemon';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('Daemon', () => {
  const dirs: string[] = [];
  const daemons: Daemon[] = [];
  afterEach(async () => {
    for (const d of daemons.splice(0)) await d.stop();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const spec = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'daemon-'));
    dirs.push(dir);
    // A command line no other process has: the stale scan matches it exactly.
    const seconds = `3600.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    return { name: 'sleeper', command: 'sleep', args: [seconds], dir, log: () => {} };
  };

  it('writes its pid file, and a second supervisor (a restarted gateway) replaces the first process', async () => {
    const s = await spec();
    const first = new Daemon(s);
    daemons.push(first);
    await first.start();
    const firstPid = first.pid as number;
    expect(alive(firstPid)).toBe(true);
    expect((await readFile(first.pidFile, 'utf8')).trim()).toBe(String(firstPid));
    // The gateway died with SIGKILL: its supervisor object is gone, the process still runs.
    const second = new Daemon(s);
    daemons.push(second);
    await second.start();
    expect(second.pid).not.toBe(firstPid);
    await expect.poll(() => alive(firstPid)).toBe(false);
    expect(alive(second.pid as number)).toBe(true);
    expect((await readFile(second.pidFile, 'utf8')).trim()).toBe(String(second.pid));
  });

  it('ends a process its pid file names even when its arguments changed, and nothing else', async () => {
    const s = await spec();
    const other = spawn('sleep', [`${s.args[0]}1`], { stdio: 'ignore' });
    const stranger = spawn('sleep', ['3599.5'], { stdio: 'ignore' });
    await writeFile(join(s.dir, 'sleeper.pid'), `${other.pid}\n`);
    const d = new Daemon(s);
    daemons.push(d);
    await d.start();
    await expect.poll(() => alive(other.pid as number)).toBe(false);
    expect(alive(stranger.pid as number)).toBe(true);
    stranger.kill('SIGKILL');
  });

  it('stops with its pid file removed, and reports a daemon that exits at once with its output', async () => {
    const s = await spec();
    const d = new Daemon(s);
    await d.start();
    const pid = d.pid as number;
    await d.stop();
    expect(alive(pid)).toBe(false);
    await expect(readFile(d.pidFile, 'utf8')).rejects.toThrow();
    const failing = new Daemon({ ...s, command: 'sh', args: ['-c', 'echo bad config >&2; exit 3'] });
    await expect(failing.start()).rejects.toThrow(/exited \(3\): bad config/);
  });

  it('waits for ready, and its output goes to a file it keeps writing after the supervisor is gone', async () => {
    const s = await spec();
    let polls = 0;
    const d = new Daemon({
      ...s,
      command: 'sh',
      args: ['-c', `echo one; echo two >&2; exec sleep ${s.args[0]}`],
      ready: async () => ++polls >= 3,
      onLine: (line) => lines.push(line),
    });
    const lines: string[] = [];
    daemons.push(d);
    await d.start();
    expect(polls).toBe(3);
    await expect.poll(() => d.output()).toBe('one\ntwo\n');
    await expect.poll(() => lines).toEqual(['one', 'two']);
    expect(await readFile(d.outputFile, 'utf8')).toBe('one\ntwo\n');
  });
});
