import { Button, Group as Row, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, type Group, GroupInput } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';

/** What the form edits. */
export interface GroupFormValues {
  name: string;
  description: string;
}

const FIELDS = ['name', 'description'] as const satisfies readonly (keyof GroupFormValues)[];

/** The values of a new, empty group. */
export const EMPTY_GROUP_FORM: GroupFormValues = { name: '', description: '' };

/** The form values of an existing group (edit mode). */
export function groupToFormValues(group: Pick<Group, 'name' | 'description'>): GroupFormValues {
  return { name: group.name, description: group.description };
}

/** Props of {@link GroupForm}. */
export interface GroupFormProps {
  /** Starting values; a new group when absent. */
  initialValues?: GroupFormValues;
  /** Text of the submit button, e.g. "Add group" or "Save changes". */
  submitLabel: string;
  /** Sends the input; a rejected promise with server `details` puts them on the fields. */
  onSubmit: (input: GroupInput) => Promise<unknown>;
  /** Shows a "Cancel" button that calls this. */
  onCancel?: () => void;
  /** More fields of the screen (the copy screen's "with members"), shown above the buttons. */
  children?: ReactNode;
}

/**
 * The group form shared by add, edit and copy. Validates with the contract's `GroupInput` schema on submit
 * and shows the server's per-field details (a taken name) when the write is refused.
 */
export function GroupForm({
  initialValues = EMPTY_GROUP_FORM,
  submitLabel,
  onSubmit,
  onCancel,
  children,
}: GroupFormProps) {
  const { t } = useTranslation();
  const form = useForm<GroupFormValues>({
    mode: 'controlled',
    initialValues,
    validate: zodValidator(GroupInput, t),
  });

  // Keyboard and screen-reader users land on the first field that needs attention.
  const focusFirstError = (errors: FormErrors) => {
    const first = FIELDS.find((field) => errors[field] !== undefined);
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await onSubmit({ name: values.name, description: values.description });
    } catch (error) {
      const errors = serverFieldErrors(error, t);
      if (FIELDS.some((field) => errors[field] !== undefined)) {
        form.setErrors(errors);
        focusFirstError(errors);
      }
    }
  }, focusFirstError);

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md" maw={640}>
        <TextInput
          label={t('groups.form.name', 'Name')}
          description={t(
            'groups.form.nameHint',
            'Unique in this tenant; upper and lower case count as the same.',
          )}
          autoComplete="off"
          required
          maxLength={GROUP_NAME_MAX}
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('groups.form.description', 'Description (optional)')}
          rows={3}
          maxLength={GROUP_DESCRIPTION_MAX}
          {...form.getInputProps('description')}
        />
        {children}
        <Row gap="sm">
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={form.submitting}>
              {t('groups.form.cancel', 'Cancel')}
            </Button>
          ) : null}
        </Row>
      </Stack>
    </form>
  );
}
