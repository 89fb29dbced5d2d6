import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The server as `npm start` runs it (the command after the build in the root package.json's `start` script), on
 * a fresh embedded data directory with the demo, and no variables but the port, data directory and demo password.
 * The server is built first as `npm start` builds it; the web app's build is left out (the API answers without).
 */
const root = resolve(import.meta.dirname, '../../..');
const startScript: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
const command = startScript.split('&&').pop()!.trim().split(/\s+/);

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

describe('the server as npm start runs it', () => {
  let child: ChildProcess;
  let dataDir: string;
  let base: string;
  let output = '';

  beforeAll(async () => {
    execFileSync('npm', ['run', '--silent', 'build', '-w', '@palisade/server'], { cwd: root, stdio: 'pipe' });
    dataDir = await mkdtemp(join(tmpdir(), 'palisade-start-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { DEV_OUTBOX: _outbox, DATABASE_URL: _db, SMTP_URL: _smtp, ...env } = process.env;
    child = spawn(command[0], command.slice(1), {
      cwd: root,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_PASSWORD: 'start-demo-password',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const deadline = Date.now() + 100_000;
    while (!output.includes('Palisade is running')) {
      if (child.exitCode !== null) throw new Error(`the server stopped: ${output}`);
      if (Date.now() > deadline) throw new Error(`the server did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await new Promise((r) => (child?.exitCode === null ? child.once('exit', r) : r(null)));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the compiled server with Node, not the TypeScript source', () => {
    expect(command[0]).toBe('node');
    expect(command.join(' ')).not.toMatch(/tsx|\.ts\b/);
    expect(command.at(-1)).toMatch(/^apps\/server\/dist\/.+\.js$/);
  });

  it('finds what it reads at run time: the migrations (applied), the GeoIP database, the translations', async () => {
    expect(await (await fetch(`${base}/api/health`)).json()).toMatchObject({ status: 'ok', database: 'ok' });
    const signIn = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@acme.example', password: 'start-demo-password' }),
    });
    expect(signIn.status).toBe(200);
    const { sessid } = (await signIn.json()) as { sessid: string };
    const lookup = await fetch(`${base}/api/policy/geo/acme/lookup?ip=193.99.144.80`, {
      headers: { 'x-auth-token': sessid },
    });
    expect(await lookup.json()).toEqual({ ip: '193.99.144.80', country: 'DE' });
    const translations = await fetch(`${base}/locales/de/translation.json`);
    expect(translations.status).toBe(200);
  });

  it('says where mail goes, and keeps the outbox closed to everyone, platform administrators included', async () => {
    expect(output).toContain(
      'no SMTP_URL: mail is kept in the outbox; set DEV_OUTBOX=true to read it at /api/dev/outbox',
    );
    expect((await fetch(`${base}/api/dev/outbox`)).status).toBe(404);
    const signIn = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@platform.example', password: 'start-demo-password' }),
    });
    expect(signIn.status).toBe(200);
    const { sessid } = (await signIn.json()) as { sessid: string };
    const outbox = await fetch(`${base}/api/dev/outbox`, { headers: { 'x-auth-token': sessid } });
    expect(outbox.status).toBe(404);
    expect(await outbox.text()).not.toContain('/verify/');
  });
});
