/**
 * Reads the server log of a whole run (the e2e journeys write theirs, scripts/e2e.sh) and fails when any line
 * still holds a credential: a line the log's redaction would change was written past it. Prints how many such
 * lines there are and where, never the lines themselves (they hold the secrets).
 *
 *   node --import tsx scripts/check-server-log.ts <log file>
 */
import { readFileSync } from 'node:fs';
import { redactSecrets } from '../apps/server/src/lib/request-log';

const file = process.argv[2];
if (!file) {
  console.error('usage: check-server-log.ts <log file>');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8').split('\n');
const leaking = lines.flatMap((line, index) => (line && redactSecrets(line) !== line ? [index + 1] : []));
const requests = lines.filter((line) => line.includes('"incoming request"')).length;
if (requests === 0) {
  console.error(`!! ${file} holds no request log line: the check would prove nothing.`);
  process.exit(1);
}
if (leaking.length > 0) {
  console.error(
    `!! ${leaking.length} line(s) of the server log hold a credential (lines ${leaking.slice(0, 10).join(', ')}).`,
  );
  process.exit(1);
}
console.info(`   server log: ${lines.length} lines, ${requests} requests, no credential in any line.`);
