import { describe, expect, it } from 'vitest';
import { linesToEntries, toLineErrors } from './lines';

describe('linesToEntries', () => {
  it('skips blank lines and keeps the line number of each entry', () => {
    expect(linesToEntries('a.example\n\n  b.example  \r\n\nc.example')).toEqual({
      entries: ['a.example', 'b.example', 'c.example'],
      lineOf: [1, 3, 5],
    });
  });
});

describe('toLineErrors', () => {
  it('maps entry errors to the lines they came from and keeps the rest', () => {
    const { lines, rest } = toLineErrors(
      { 'domains.2': 'Bad domain', name: 'Required', 'domains.0': 'Duplicate', domains: 'Too many' },
      'domains',
      [2, 4, 7],
    );
    expect(lines).toEqual([
      { line: 2, message: 'Duplicate' },
      { line: 7, message: 'Bad domain' },
    ]);
    expect(rest).toEqual({ name: 'Required', domains: 'Too many' });
  });
});
