import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Props of {@link RowActions}. */
export interface RowActionsProps {
  /** The object's name, for the buttons' accessible names ("Edit Office"). */
  name: string;
  /** Shows "Edit" when given. */
  onEdit?: () => void;
  /** Shows "Delete" when given. */
  onDelete?: () => void;
}

/** The edit and delete buttons of one object row; each is left out when its handler is. */
export function RowActions({ name, onEdit, onDelete }: RowActionsProps) {
  const { t } = useTranslation();
  if (!onEdit && !onDelete) return null;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {onEdit ? (
        <Button
          size="compact-sm"
          variant="subtle"
          aria-label={t('policyObjects.actions.editNamed', 'Edit {{name}}', { name })}
          onClick={onEdit}
        >
          {t('policyObjects.actions.edit', 'Edit')}
        </Button>
      ) : null}
      {onDelete ? (
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          aria-label={t('policyObjects.actions.deleteNamed', 'Delete {{name}}', { name })}
          onClick={onDelete}
        >
          {t('policyObjects.actions.delete', 'Delete')}
        </Button>
      ) : null}
    </Group>
  );
}
