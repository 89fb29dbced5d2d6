/**
 * PostgreSQL cannot store the NUL character (U+0000) in text, so a NUL anywhere in a request is refused as bad
 * input (`validation.nulByte`) before it can reach a query and fail there as a 500. One rule for every string,
 * object key, query and path parameter, applied by the server to each request before its schema runs.
 */
export const NUL_BYTE_MESSAGE = 'validation.nulByte';

/** A NUL in a key is shown as `\u0000`, so the reported path stays printable. */
const printable = (key: string) => key.replaceAll('\u0000', '\\u0000');

/**
 * Objects whose fields are walked: parsed JSON, query strings and path parameters (Fastify gives the latter null-
 * prototype objects). Binary data is not text, and walking a Buffer would visit each of its bytes.
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !ArrayBuffer.isView(value) &&
    !(value instanceof ArrayBuffer)
  );
}

/**
 * The dotted paths (`body.members.0.name`, the form of the validation details) of every string and every object
 * key in `value` that contains a NUL character; empty when there is none. `prefix` names the root
 * (`body`, `query`, `params`); a string at the root is reported as the prefix itself.
 */
export function nulBytePaths(value: unknown, prefix: string): string[] {
  return pathsOfStrings(value, prefix, (text) => text.includes('\u0000'));
}

/** What a line a machine sends may not hold: a C0 control character other than NUL (which has its own message). */
export const CONTROL_CHARACTER_MESSAGE = 'validation.controlCharacter';
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTER = /[\u0001-\u001f]/;

/**
 * The paths (as {@link nulBytePaths}) of every string and key holding a C0 control character other than NUL
 * (U+0001–U+001F, tab and line breaks included): what nothing a gateway names — a host, a key, an id, a
 * category — ever contains, and what would reach the screens, the logs and the CSV exports unseen.
 */
export function controlCharacterPaths(value: unknown, prefix: string): string[] {
  return pathsOfStrings(value, prefix, (text) => CONTROL_CHARACTER.test(text));
}

/** The paths of the strings and keys of `value` for which `isBad` holds. */
function pathsOfStrings(value: unknown, prefix: string, isBad: (text: string) => boolean): string[] {
  const found: string[] = [];
  // Iterative, so a deeply nested body cannot overflow the stack. An entry is a value, its path, and whether the
  // key leading to it is bad itself.
  const stack: Array<[unknown, string, boolean]> = [[value, prefix, false]];
  while (stack.length > 0) {
    const [item, path, isKeyBad] = stack.pop() as [unknown, string, boolean];
    if (isKeyBad) found.push(path);
    if (typeof item === 'string') {
      if (isBad(item)) found.push(path);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}.${i}`, false]);
    } else if (isRecord(item)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        stack.push([child, `${path}.${printable(key)}`, isBad(key)]);
      }
    }
  }
  // A key and its value can both carry a NUL: the field is named once.
  return [...new Set(found)];
}
