import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Daemons and admin tools live in the sbin directories, which a non-root PATH may lack. */
export const TOOL_PATH = [
  ...new Set([...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin']),
]
  .filter(Boolean)
  .join(':');
/** Schedules in nftables rulesets are UTC. */
export const TOOL_ENV: NodeJS.ProcessEnv = { ...process.env, PATH: TOOL_PATH, TZ: 'UTC' };

export const which = (command: string) => TOOL_PATH.split(':').some((dir) => existsSync(join(dir, command)));

export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly code: number | string | null,
    readonly output: string,
  ) {
    super(`\`${command}\` failed (${code}): ${output.trim().slice(0, 2000) || 'no output'}`);
    this.name = 'CommandError';
  }
}

/** Runs a command (no shell) and answers its standard output; a non-zero exit is a {@link CommandError}. */
export function run(
  command: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const line = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      {
        env: options.env ?? TOOL_ENV,
        timeout: options.timeoutMs ?? 30_000,
        maxBuffer: 64 << 20,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as { code?: number | string }).code ?? error.message;
          reject(new CommandError(line, code ?? null, `${stderr}${stdout}`));
        } else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
