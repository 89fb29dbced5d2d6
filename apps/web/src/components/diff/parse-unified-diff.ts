/** What one line of a unified diff is. */
export type DiffLineKind = 'hunk' | 'added' | 'removed' | 'context' | 'note';

/** One line of a unified diff, its leading `+`, `-` or space kept. */
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/**
 * The lines of a unified diff (jsdiff's `formatPatch`), from its first hunk on: the file header before it
 * (`===`, `Index:`, `---`, `+++`) names the artefact, which the viewer shows as a heading instead. After the first
 * hunk header, a line is what its first character says, so a removed line that starts with `--` stays a removed
 * line.
 */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let isInHunk = false;
  const raw = diff.split('\n');
  // The newline that ends the last line is not a line of its own.
  if (raw.at(-1) === '') raw.pop();
  for (const text of raw) {
    if (text.startsWith('@@')) {
      isInHunk = true;
      lines.push({ kind: 'hunk', text });
    } else if (!isInHunk) {
      // The file header.
    } else if (text.startsWith('+')) lines.push({ kind: 'added', text });
    else if (text.startsWith('-')) lines.push({ kind: 'removed', text });
    else if (text.startsWith('\\')) lines.push({ kind: 'note', text });
    else lines.push({ kind: 'context', text });
  }
  return lines;
}
