import type { LocalControls, LocalControlsView } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { serverFieldErrors } from '../../../lib/form-errors';

/** The four lists of a site gateway's local controls; each screen edits one of them. */
export type ControlField = keyof LocalControls;

/** The problems of one list: about the list as a whole, and about its entries by their id (or code). */
export interface FieldErrors {
  list: string | null;
  items: Readonly<Record<string, string>>;
}

export const NO_FIELD_ERRORS: FieldErrors = { list: null, items: {} };

/**
 * The whole controls to send: the three lists this screen does not edit as they were loaded, and `value` in
 * place of the one it edits (read-modify-write: PUT replaces all four).
 */
export function controlsWith(view: LocalControlsView, field: ControlField, value: string[]): LocalControls {
  return {
    policyIds: view.policyIds,
    categories: view.categories,
    countries: view.countries,
    feeds: view.feeds,
    [field]: value,
  };
}

/** Whether two lists hold the same entries, in any order. */
export function isSameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry) => b.includes(entry));
}

/**
 * The server's 400 details about `field`, translated: `body.<field>` is about the list, `body.<field>.N` about
 * the N-th entry of the list that was sent (`sent`), kept by that entry's id. Null when no detail is about it.
 */
export function fieldErrorsOf(
  error: unknown,
  field: ControlField,
  sent: readonly string[],
  t: TFunction,
): FieldErrors | null {
  let list: string | null = null;
  const items: Record<string, string> = {};
  for (const [path, message] of Object.entries(serverFieldErrors(error, t))) {
    if (path === field) list = message;
    else if (path.startsWith(`${field}.`)) {
      const entry = sent[Number(path.slice(field.length + 1))];
      if (entry !== undefined) items[entry] = message;
      else list ??= message;
    }
  }
  return list === null && Object.keys(items).length === 0 ? null : { list, items };
}
