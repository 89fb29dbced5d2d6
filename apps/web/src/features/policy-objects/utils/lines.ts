/** The non-blank lines of a text as trimmed entries, with the 1-based line number of each. */
export function linesToEntries(text: string): { entries: string[]; lineOf: number[] } {
  const entries: string[] = [];
  const lineOf: number[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const entry = raw.trim();
    if (entry === '') return;
    entries.push(entry);
    lineOf.push(index + 1);
  });
  return { entries, lineOf };
}

/** One problem of a line-per-entry text. */
export interface LineError {
  line: number;
  message: string;
}

/**
 * Splits form errors of a list field (`field.3`, as the contract and the server's 400 details name them) from
 * the others and turns them into line errors, by the line each entry came from; sorted by line.
 */
export function toLineErrors(
  errors: Record<string, string>,
  field: string,
  lineOf: readonly number[],
): { lines: LineError[]; rest: Record<string, string> } {
  const lines: LineError[] = [];
  const rest: Record<string, string> = {};
  const prefix = `${field}.`;
  for (const [key, message] of Object.entries(errors)) {
    const index = key.startsWith(prefix) ? Number(key.slice(prefix.length).split('.')[0]) : Number.NaN;
    if (Number.isInteger(index)) lines.push({ line: lineOf[index] ?? index + 1, message });
    else rest[key] = message;
  }
  lines.sort((a, b) => a.line - b.line);
  return { lines, rest };
}
