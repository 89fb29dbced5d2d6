/** The letters of the apps look-up bar: A–Z, then `#` for names that do not start with a letter. */
export const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'] as const;
export type Letter = (typeof LETTERS)[number];

/** The letter a name is filed under (the contract's rule: `#` when it does not start with A–Z). */
export function letterOf(name: string): Letter {
  const first = name.trim().charAt(0).toUpperCase();
  return (LETTERS as readonly string[]).includes(first) && first !== '#' ? (first as Letter) : '#';
}

/** Items grouped by the letter of their name, letters in bar order, each group in the order given. */
export function groupByLetter<T>(items: readonly T[], nameOf: (item: T) => string): [Letter, T[]][] {
  const groups = new Map<Letter, T[]>();
  for (const item of items) {
    const letter = letterOf(nameOf(item));
    const group = groups.get(letter);
    if (group) group.push(item);
    else groups.set(letter, [item]);
  }
  return LETTERS.filter((letter) => groups.has(letter)).map((letter) => [letter, groups.get(letter) ?? []]);
}

/** A letter from the address, or null when absent or not one of {@link LETTERS}. */
export function parseLetter(value: string | null): Letter | null {
  return value && (LETTERS as readonly string[]).includes(value) ? (value as Letter) : null;
}
