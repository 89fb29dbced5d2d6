import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import type { EntryMutationOptions } from '../api/entry-mutation';
import type { AccessEntry } from './entry-table';

/** A save hook of the area (`useSavePrivateService`, `useSaveZtnaRule`). */
type SaveHook<Input> = (
  tenant: string,
  options?: EntryMutationOptions<unknown, { id?: string; body: Input }>,
) => UseMutationResult<unknown, unknown, { id?: string; body: Input }>;

/** A delete hook of the area. */
type DeleteHook = (
  tenant: string,
  options?: EntryMutationOptions<unknown, string>,
) => UseMutationResult<unknown, unknown, string>;

/** The toasts and the confirmation of one kind of entry, translated. */
export interface EntryTexts<T> {
  created: (name: string) => string;
  saved: (name: string) => string;
  enabled: (name: string) => string;
  disabled: (name: string) => string;
  deleted: (name: string) => string;
  deleteTitle: (name: string) => string;
  deleteMessage: (entry: T) => ReactNode;
  deleteConfirm: string;
}

/** What {@link useEntryActions} needs to know about one kind of entry. */
export interface EntryActionsOptions<T extends AccessEntry, Input> {
  useSave: SaveHook<Input>;
  useDelete: DeleteHook;
  /** A listed entry as the API takes it back (the switch sends the whole entry with `enabled` changed). */
  toInput: (entry: T) => Input;
  nameOfInput: (input: Input) => string;
  texts: EntryTexts<T>;
}

type EditorState<T> = { isOpen: false } | { isOpen: true; entry?: T; key: number };

/**
 * The writes of a services or rules screen:
 * - the add/edit modal: `editor.open()` for a new entry, `editor.open(entry)` to edit one, and its `onSubmit`,
 *   which saves, toasts and closes (a refused save rejects, so the form shows why);
 * - the enabled switch, which saves the entry at once, showing the new state while it saves;
 * - deleting after a confirmation (`askDelete(entry)`; render `deleteDialog` once).
 */
export function useEntryActions<T extends AccessEntry, Input extends { enabled?: boolean }>({
  useSave,
  useDelete,
  toInput,
  nameOfInput,
  texts,
}: EntryActionsOptions<T, Input>) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();

  // The form shows every refusal itself (fields or a toast).
  const save = useSave(tenant, { onError: () => {} });
  const [editor, setEditor] = useState<EditorState<T>>({ isOpen: false });
  const close = () => setEditor({ isOpen: false });
  const open = (entry?: T) => setEditor({ isOpen: true, entry, key: Date.now() });
  const onSubmit = async (input: Input) => {
    const entry = editor.isOpen ? editor.entry : undefined;
    await save.mutateAsync({ id: entry?.id, body: input });
    const name = nameOfInput(input);
    showSuccess(entry ? texts.saved(name) : texts.created(name));
    close();
  };

  // The state each switch is being saved to, by entry id; the list's own state once saved.
  const [toggling, setToggling] = useState<ReadonlyMap<string, boolean>>(new Map());
  const forget = (id: string) =>
    setToggling((current) => {
      const next = new Map(current);
      next.delete(id);
      return next;
    });
  // Hook-level callbacks: each switch's save is answered, even when another switch was flipped meanwhile.
  const toggleSave = useSave(tenant, {
    onSuccess: (_result, { id, body }) => {
      if (id) forget(id);
      const name = nameOfInput(body);
      showSuccess(body.enabled ? texts.enabled(name) : texts.disabled(name));
    },
    onError: (error, { id }) => {
      if (id) forget(id);
      showMutationError(t, error);
    },
  });
  const toggle = (entry: T, enabled: boolean) => {
    setToggling((current) => new Map(current).set(entry.id, enabled));
    toggleSave.mutate({ id: entry.id, body: { ...toInput(entry), enabled } });
  };

  // The entry stays set while the dialog closes, so its name does not vanish during the transition.
  const [target, setTarget] = useState<T | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const remove = useDelete(tenant, {
    onSuccess: () => {
      if (target) showSuccess(texts.deleted(target.name));
      setDeleteOpen(false);
    },
  });
  const askDelete = (entry: T) => {
    setTarget(entry);
    setDeleteOpen(true);
  };
  const deleteDialog: ReactNode = target ? (
    <ConfirmModal
      opened={isDeleteOpen}
      title={texts.deleteTitle(target.name)}
      message={texts.deleteMessage(target)}
      confirmLabel={texts.deleteConfirm}
      isDestructive
      isBusy={remove.isPending}
      onClose={() => setDeleteOpen(false)}
      onConfirm={() => remove.mutate(target.id)}
    />
  ) : null;

  return {
    editor: { state: editor, open, close, onSubmit },
    enabledOf: (entry: T) => toggling.get(entry.id) ?? entry.enabled,
    isToggling: (entry: T) => toggling.has(entry.id),
    toggle,
    askDelete,
    deleteDialog,
  };
}
