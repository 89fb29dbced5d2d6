import type { Session } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { makeSession, renderWithProviders } from '../../../testing/render';

/** Renders `Screen` at `route`, as the given session (an admin by default). */
export function screenRenderer(Screen: ComponentType, route: string) {
  return (session: Session = makeSession()) => renderWithProviders(<Screen />, { route, session });
}

export type User = ReturnType<ReturnType<typeof screenRenderer>>['user'];

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
export async function choose(user: User, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** Picks the user `option` found by searching `query` in the users field of `dialog`. */
export async function pickUser(user: User, dialog: HTMLElement, query: string, option: string) {
  await user.type(within(dialog).getByRole('combobox', { name: 'Users' }), query);
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

/** The row of a service or a rule, found by its name (the row header). */
export async function rowOf(name: string): Promise<HTMLElement> {
  return (await screen.findByRole('rowheader', { name })).closest('tr') as HTMLElement;
}

/** Each test starts with empty storage and ends with no stubbed globals. */
export function isolateScreenTests() {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
}

/** What {@link openNewEntry} fills in. */
export interface NewEntry {
  /** The add button's name, and the title of the dialog it opens. */
  addButton: string;
  dialogTitle: string;
  name: string;
  gateway: string;
  /** The field of what the entry reaches (internal address, destination) and its value. */
  target: { label: string; value: string };
}

/** Opens the add form and fills name, site gateway and what the entry reaches; answers the dialog. */
export async function openNewEntry(user: User, entry: NewEntry): Promise<HTMLElement> {
  await user.click(screen.getByRole('button', { name: entry.addButton }));
  const dialog = await screen.findByRole('dialog', { name: entry.dialogTitle });
  await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), entry.name);
  await choose(user, 'Site gateway', entry.gateway);
  await user.type(within(dialog).getByRole('textbox', { name: entry.target.label }), entry.target.value);
  return dialog;
}
