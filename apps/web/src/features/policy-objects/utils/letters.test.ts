import { describe, expect, it } from 'vitest';
import { groupByLetter, letterOf, parseLetter } from './letters';

describe('letterOf', () => {
  it('files names under their first letter, upper-cased, and anything else under #', () => {
    expect(letterOf('slack')).toBe('S');
    expect(letterOf(' Zoom')).toBe('Z');
    expect(letterOf('1Password')).toBe('#');
    expect(letterOf('Élan')).toBe('#');
    expect(letterOf('')).toBe('#');
  });
});

describe('groupByLetter', () => {
  it('groups in bar order with # last, keeping the order inside a group', () => {
    const groups = groupByLetter(['Zoom', '7-Zip', 'Asana', 'asana2', 'Box'], (name) => name);
    expect(groups).toEqual([
      ['A', ['Asana', 'asana2']],
      ['B', ['Box']],
      ['Z', ['Zoom']],
      ['#', ['7-Zip']],
    ]);
  });
});

describe('parseLetter', () => {
  it('accepts only letters of the bar', () => {
    expect(parseLetter('Q')).toBe('Q');
    expect(parseLetter('#')).toBe('#');
    expect(parseLetter('q')).toBeNull();
    expect(parseLetter('AB')).toBeNull();
    expect(parseLetter(null)).toBeNull();
  });
});
