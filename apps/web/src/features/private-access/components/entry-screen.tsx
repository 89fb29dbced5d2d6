import { Button, Modal } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { EntryPage } from './entry-page';
import { type AccessEntry, EntryTable } from './entry-table';
import { type EntryActionsOptions, useEntryActions } from './use-entry-actions';

/** What {@link EntryScreen} shows of one kind of entry (services, rules), translated by the screen. */
export interface EntryScreenProps<T extends AccessEntry, Input> extends EntryActionsOptions<T, Input> {
  /** The list hook of the kind (`usePrivateServices`, `useZtnaRules`). */
  useEntries: (tenant: string) => UseQueryResult<{ items: T[] }>;
  title: string;
  intro: string[];
  loadingLabel: string;
  emptyMessage: string;
  /** The add button's label. */
  addLabel: string;
  /** The table's caption for `count` entries. */
  caption: (count: number) => string;
  /** The header and value of the column of what the entry reaches. */
  targetHeader: string;
  targetOf: (entry: T) => string;
  /** The title of the modal of a new entry ("Edit {name}" for an existing one). */
  addTitle: string;
  /** The form of the modal: the entry to edit (none for a new one), its submit and its cancel. */
  renderForm: (form: {
    entry?: T;
    onSubmit: (input: Input) => Promise<unknown>;
    onCancel: () => void;
  }) => ReactNode;
}

/**
 * A services or rules screen: the page with its table, the add/edit modal and the delete confirmation. Add and
 * edit need `gateways:create` and `gateways:update`, deleting `gateways:delete`.
 */
export function EntryScreen<T extends AccessEntry, Input extends { enabled?: boolean }>({
  useEntries,
  title,
  intro,
  loadingLabel,
  emptyMessage,
  addLabel,
  caption,
  targetHeader,
  targetOf,
  addTitle,
  renderForm,
  ...actionOptions
}: EntryScreenProps<T, Input>) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('gateways:create');
  const canUpdate = useCan('gateways:update');
  const canDelete = useCan('gateways:delete');
  const query = useEntries(tenant);
  const actions = useEntryActions<T, Input>(actionOptions);
  const { state: editor } = actions.editor;

  const addButton = canCreate ? <Button onClick={() => actions.editor.open()}>{addLabel}</Button> : null;

  return (
    <>
      <EntryPage
        title={title}
        intro={intro}
        query={query}
        loadingLabel={loadingLabel}
        emptyMessage={emptyMessage}
        addButton={addButton}
      >
        {(items) => (
          <EntryTable
            entries={items}
            caption={caption(items.length)}
            targetHeader={targetHeader}
            targetOf={targetOf}
            canUpdate={canUpdate}
            canDelete={canDelete}
            enabledOf={actions.enabledOf}
            isToggling={actions.isToggling}
            onToggle={actions.toggle}
            onEdit={actions.editor.open}
            onDelete={actions.askDelete}
          />
        )}
      </EntryPage>
      {editor.isOpen ? (
        <Modal
          key={editor.key}
          opened
          onClose={actions.editor.close}
          size="lg"
          title={
            editor.entry
              ? t('privateAccess.form.editTitle', 'Edit {{name}}', { name: editor.entry.name })
              : addTitle
          }
        >
          {renderForm({
            entry: editor.entry,
            onSubmit: actions.editor.onSubmit,
            onCancel: actions.editor.close,
          })}
        </Modal>
      ) : null}
      {actions.deleteDialog}
    </>
  );
}
