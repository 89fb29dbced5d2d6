/** An option of the object pickers. */
export interface Option {
  value: string;
  label: string;
}

/** The objects a rule can refer to, loaded once by the editor. */
export interface RuleObjectOptions {
  apps: Option[];
  categories: Option[];
  feeds: Option[];
  locations: Option[];
}

/** Keeps the values of a multi-select that the options do not know (yet) visible by their id. */
export function withPicked(options: Option[], picked: string[]): Option[] {
  const known = new Set(options.map((option) => option.value));
  return [...options, ...picked.filter((id) => !known.has(id)).map((id) => ({ value: id, label: id }))];
}
