import { Button, Group } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { handleFormError } from '../api/mutation';
import { PolicyTestFailuresAlert, useTestFailures } from './policy-test-failures-alert';

/** What {@link useObjectForm} needs to know about one object form. */
export interface ObjectFormOptions<Values, Input> {
  initialValues: Values;
  /** The client-side check, usually the contract's schema through `zodValidator`. */
  validate: (values: Values) => FormErrors;
  /** The values as the API takes them. */
  toInput: (values: Values) => Input;
  /** Sends the input; a rejection with 400 details or a policy-test refusal is shown on the form. */
  onSubmit: (input: Input) => Promise<unknown>;
  /** Places the server's field details (contract paths) on the form's fields; as they are when absent. */
  toFormErrors?: (errors: Record<string, string>, values: Values) => FormErrors;
}

/**
 * The state of a policy-object form (location, app, category, feed): the Mantine form, its submit handler and
 * the policy tests a refused save would break. A failed check, on the client or the server, puts its messages
 * on the fields and moves the focus to the first of them.
 */
// biome-ignore lint/suspicious/noExplicitAny: Mantine's own constraint on form values, which interfaces meet.
export function useObjectForm<Values extends Record<string, any>, Input>({
  initialValues,
  validate,
  toInput,
  onSubmit,
  toFormErrors,
}: ObjectFormOptions<Values, Input>) {
  const { t } = useTranslation();
  const failures = useTestFailures();
  const form = useForm<Values>({ mode: 'controlled', initialValues, validate });

  const focusFirstError = (errors: FormErrors) => {
    const first = Object.keys(errors)[0];
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    failures.clear();
    try {
      await onSubmit(toInput(values));
    } catch (error) {
      handleFormError(t, error, {
        captureFailures: failures.capture,
        setErrors: (errors) => {
          const formErrors = toFormErrors ? toFormErrors(errors, values) : errors;
          form.setErrors(formErrors);
          focusFirstError(formErrors);
        },
      });
    }
  }, focusFirstError);

  return { form, failures, handleSubmit };
}

/** Props of {@link ObjectFormActions}. */
export interface ObjectFormActionsProps {
  failures: ReturnType<typeof useTestFailures>;
  isSubmitting: boolean;
  submitLabel: ReactNode;
  /** The submit button stays disabled while this is true (nothing to send yet). */
  isSubmitDisabled?: boolean;
  onCancel: () => void;
}

/** The end of an object form: the policy tests a refused save would break, then Cancel and submit. */
export function ObjectFormActions({
  failures,
  isSubmitting,
  submitLabel,
  isSubmitDisabled = false,
  onCancel,
}: ObjectFormActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <PolicyTestFailuresAlert failures={failures.failures} onClose={failures.clear} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={isSubmitting}>
          {t('policyObjects.form.cancel', 'Cancel')}
        </Button>
        <Button type="submit" loading={isSubmitting} disabled={isSubmitDisabled}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
