import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { it } from 'vitest';
import { TOOL_ENV, TOOL_PATH } from './exec';

/** For the tests: is a command installed (sbin included)? */
export const hasCommand = (command: string) =>
  TOOL_PATH.split(':').some((dir) => dir !== '' && existsSync(`${dir}/${command}`));

/** Can network namespaces be made here (root alone is not enough in some containers)? */
function canMakeNamespaces(): boolean {
  if (process.getuid?.() !== 0 || !hasCommand('ip')) return false;
  const name = `pgwprobe${randomBytes(3).toString('hex')}`;
  const made = spawnSync('ip', ['netns', 'add', name], { env: TOOL_ENV }).status === 0;
  if (made) spawnSync('ip', ['netns', 'del', name], { env: TOOL_ENV });
  return made;
}

/**
 * A test that needs root, /dev/net/tun (`tun`), network namespaces (`netns`) or commands: skipped with a loud "SKIPPED: <why>" when they are missing (the runner
 * counts it as skipped); with CI=true it fails instead.
 */
export function needsTest(name: string, needs: string[], fn: () => unknown, timeout?: number) {
  const missing = needs.filter((n) =>
    n === 'root'
      ? process.getuid?.() !== 0
      : n === 'tun'
        ? !existsSync('/dev/net/tun')
        : n === 'netns'
          ? !canMakeNamespaces()
          : !hasCommand(n),
  );
  const why = `missing ${missing.join(', ')} (bash scripts/net-tools.sh installs the tools; the data plane needs root)`;
  if (missing.length > 0 && process.env.CI === 'true') {
    return it(name, () => {
      throw new Error(`CI=true and ${why}`);
    });
  }
  if (missing.length > 0) console.warn(`\n!! gateway: "${name}" SKIPPED: ${why}\n`);
  return it.skipIf(missing.length > 0)(name, fn, timeout);
}
