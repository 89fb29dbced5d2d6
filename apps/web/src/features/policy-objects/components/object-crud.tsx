import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import type { ObjectMutationOptions } from '../api/mutation';
import { useTestFailures } from './policy-test-failures-alert';
import { type PolicyObjectKind, SafeDeleteDialog } from './where-used-dialog';

/** A mutation hook of the policy-object API (`useDeleteLocations`…). */
type ObjectMutationHook<TVars> = (
  tenant: string,
  options?: ObjectMutationOptions<unknown, TVars>,
) => UseMutationResult<unknown, unknown, TVars>;

/** What {@link useSafeDelete} needs to know about one kind of object. */
export interface SafeDeleteOptions<T> {
  kind: PolicyObjectKind;
  idOf: (object: T) => string;
  nameOf: (object: T) => string;
  useDelete: ObjectMutationHook<string[]>;
  /** The success toast, translated. */
  deletedMessage: (name: string) => string;
}

/**
 * Deleting one policy object from a list: `ask(object)` opens the dialog that first shows where the object is
 * used, then deletes it; a refusal because policy tests would break is listed in the dialog, anything else is
 * toasted. Render `dialog` once on the screen.
 */
export function useSafeDelete<T>({ kind, idOf, nameOf, useDelete, deletedMessage }: SafeDeleteOptions<T>) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  // The object stays set while the dialog closes, so its name does not vanish during the transition.
  const [target, setTarget] = useState<T | null>(null);
  const [isOpen, setOpen] = useState(false);
  const failures = useTestFailures();
  const mutation = useDelete(tenant, {
    onSuccess: () => {
      if (target) showSuccess(deletedMessage(nameOf(target)));
      setOpen(false);
    },
    onError: (error) => {
      if (!failures.capture(error)) showMutationError(t, error);
    },
  });

  const ask = (object: T) => {
    failures.clear();
    setTarget(object);
    setOpen(true);
  };

  const dialog: ReactNode = target ? (
    <SafeDeleteDialog
      opened={isOpen}
      kind={kind}
      id={idOf(target)}
      name={nameOf(target)}
      isDeleting={mutation.isPending}
      failures={failures.failures}
      onClose={() => setOpen(false)}
      onConfirm={() => mutation.mutate([idOf(target)])}
    />
  ) : null;

  return { ask, dialog };
}

/** What {@link useObjectEditor} needs to know about one kind of object. */
export interface ObjectEditorOptions<T, Input, TVars> {
  useSave: ObjectMutationHook<TVars>;
  /** The save call's variables: the edited object's id (none for a new one) and the input. */
  toVars: (object: T | undefined, input: Input) => TVars;
  nameOfInput: (input: Input) => string;
  /** The success toast of a new object, translated. */
  createdMessage: (name: string) => string;
}

type EditorState<T> = { isOpen: false } | { isOpen: true; object?: T; key: number };

/**
 * The add/edit modal of a policy-object list: `open()` for a new object, `open(object)` to edit one, and the
 * modal's `onSubmit`, which saves, toasts and closes. A refused save rejects, so the form shows why. Each
 * opening gets a fresh `key`, so the form starts from the object's values.
 */
export function useObjectEditor<T, Input, TVars>({
  useSave,
  toVars,
  nameOfInput,
  createdMessage,
}: ObjectEditorOptions<T, Input, TVars>) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [state, setState] = useState<EditorState<T>>({ isOpen: false });
  // The form shows every refusal itself (fields, broken tests, toast).
  const mutation = useSave(tenant, { onError: () => {} });

  const close = () => setState({ isOpen: false });
  const open = (object?: T) => setState({ isOpen: true, object, key: Date.now() });
  const onSubmit = async (input: Input) => {
    const object = state.isOpen ? state.object : undefined;
    await mutation.mutateAsync(toVars(object, input));
    const name = nameOfInput(input);
    showSuccess(
      object ? t('policyObjects.saved', 'Changes to {{name}} saved.', { name }) : createdMessage(name),
    );
    close();
  };

  return { state, open, close, onSubmit };
}
