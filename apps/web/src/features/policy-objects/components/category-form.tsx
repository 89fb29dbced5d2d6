import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { CategoryInput, type WebCategory } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { type LineError, linesToEntries, toLineErrors } from '../utils/lines';
import { ObjectFormActions, useObjectForm } from './object-form';

/** What the custom-category form edits; the domains are one per line. */
export interface CategoryFormValues {
  name: string;
  description: string;
  domainsText: string;
}

/** At most this many line errors are listed; the rest are counted. */
const MAX_LINE_ERRORS = 10;

/** Props of {@link CategoryFormModal}. */
export interface CategoryFormModalProps {
  opened: boolean;
  /** The custom category to edit; a new one when absent. */
  category?: WebCategory;
  onSubmit: (input: CategoryInput) => Promise<unknown>;
  onCancel: () => void;
}

/** A custom web category in a modal: name, description and its domains, one per line. */
export function CategoryFormModal({ opened, category, onSubmit, onCancel }: CategoryFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      size="lg"
      title={
        category
          ? t('policyObjects.categories.form.editTitle', 'Edit {{name}}', { name: category.name })
          : t('policyObjects.categories.form.addTitle', 'Add custom category')
      }
    >
      <CategoryForm category={category} onSubmit={onSubmit} onCancel={onCancel} />
    </Modal>
  );
}

/**
 * The form itself. The domains are validated with the contract's `CategoryInput`; a bad or repeated domain is
 * reported by its line number, from the client check or from the server's 400 details (`body.domains.3`).
 */
export function CategoryForm({ category, onSubmit, onCancel }: Omit<CategoryFormModalProps, 'opened'>) {
  const { t } = useTranslation();

  const toInput = (values: CategoryFormValues) => {
    const { entries, lineOf } = linesToEntries(values.domainsText);
    return { input: { name: values.name, description: values.description, domains: entries }, lineOf };
  };

  const renderDomainErrors = (listError: string | undefined, lines: LineError[]): ReactNode => {
    if (!listError && lines.length === 0) return undefined;
    const rest = lines.length - MAX_LINE_ERRORS;
    return (
      <>
        {listError ? <span style={{ display: 'block' }}>{listError}</span> : null}
        {lines.slice(0, MAX_LINE_ERRORS).map((error) => (
          <span key={error.line} style={{ display: 'block' }}>
            {t('policyObjects.lineError', 'Line {{line}}: {{message}}', { ...error })}
          </span>
        ))}
        {rest > 0 ? (
          <span style={{ display: 'block' }}>
            {t('policyObjects.moreLineErrors', {
              count: rest,
              defaultValue_one: 'and {{count}} more line',
              defaultValue_other: 'and {{count}} more lines',
            })}
          </span>
        ) : null}
      </>
    );
  };

  /** Contract errors (`domains.3`) → the textarea's error, naming lines. */
  const toFormErrors = (errors: Record<string, string>, lineOf: number[]): FormErrors => {
    const { lines, rest } = toLineErrors(errors, 'domains', lineOf);
    const { domains: listError, ...others } = rest;
    const domainsText = renderDomainErrors(listError, lines);
    return domainsText ? { ...others, domainsText } : others;
  };

  const validateWithSchema = zodValidator(CategoryInput, t);
  const { form, failures, handleSubmit } = useObjectForm<CategoryFormValues, CategoryInput>({
    initialValues: {
      name: category?.name ?? '',
      description: category?.description ?? '',
      domainsText: category ? category.domains.join('\n') : '',
    },
    validate: (values) => {
      const { input, lineOf } = toInput(values);
      return toFormErrors(validateWithSchema(input), lineOf);
    },
    toInput: (values) => toInput(values).input,
    onSubmit,
    toFormErrors: (errors, values) => toFormErrors(errors, toInput(values).lineOf),
  });

  const count = linesToEntries(form.values.domainsText).entries.length;

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('policyObjects.categories.form.name', 'Name')}
          required
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('policyObjects.categories.form.description', 'Description (optional)')}
          rows={2}
          {...form.getInputProps('description')}
        />
        <Textarea
          label={t('policyObjects.categories.form.domains', 'Domains, one per line')}
          description={t('policyObjects.categories.form.domainsCount', {
            count,
            defaultValue_one: '{{count}} domain. A domain also matches its subdomains.',
            defaultValue_other: '{{count}} domains. A domain also matches its subdomains.',
          })}
          required
          autosize
          minRows={5}
          maxRows={14}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('domainsText')}
        />
        <ObjectFormActions
          failures={failures}
          isSubmitting={form.submitting}
          onCancel={onCancel}
          submitLabel={
            category
              ? t('policyObjects.form.save', 'Save')
              : t('policyObjects.categories.form.create', 'Add category')
          }
        />
      </Stack>
    </form>
  );
}
