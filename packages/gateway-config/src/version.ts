/**
 * The version of a policy bundle: a stable short hash of its artefacts, so a gateway can tell at a glance
 * whether what it runs is what the server would send.
 */
import { createHash } from 'node:crypto';

/**
 * The first 16 hex digits of the SHA-256 of the artefacts, taken in the order of their names (the order of the
 * object's keys does not matter); each text is length-prefixed, so moving text from one artefact to the next
 * changes the hash.
 */
export function bundleVersion(artefacts: Readonly<Record<string, string>>): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(artefacts).sort()) {
    const text = artefacts[name];
    hash.update(`${name}\n${Buffer.byteLength(text, 'utf8')}\n`);
    hash.update(text, 'utf8');
  }
  return hash.digest('hex').slice(0, 16);
}
