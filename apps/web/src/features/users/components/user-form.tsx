import { Button, Fieldset, Group, MultiSelect, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { type GroupOption, type User, UserInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { useFeature } from '../../../lib/tenant-flags';

/** What the form edits: plain strings and flags, an empty string meaning "not given". */
export interface UserFormValues {
  username: string;
  firstname: string;
  lastname: string;
  email: string;
  groups: string[];
  isprvaccess: boolean;
  issiauser: boolean;
  isxdrenabled: boolean;
  suci: string;
}

const FIELDS = [
  'username',
  'firstname',
  'lastname',
  'email',
  'groups',
  'isprvaccess',
  'issiauser',
  'isxdrenabled',
  'suci',
] as const satisfies readonly (keyof UserFormValues)[];

/** The values of a new, empty user. */
export const EMPTY_USER_FORM: UserFormValues = {
  username: '',
  firstname: '',
  lastname: '',
  email: '',
  groups: [],
  isprvaccess: false,
  issiauser: false,
  isxdrenabled: false,
  suci: '',
};

/** The form values of an existing user (edit mode). */
export function userToFormValues(user: User): UserFormValues {
  return {
    username: user.username,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    groups: user.groups,
    isprvaccess: user.isprvaccess,
    issiauser: user.issiauser,
    isxdrenabled: user.isxdrenabled,
    suci: user.suci ?? '',
  };
}

/**
 * The values of a copy of `user`: a new user with the same names, groups and access flags; the username and
 * e-mail (which identify a person) and the SUCI (which identifies a SIM) are left for the admin to fill in.
 */
export function copyToFormValues(user: User): UserFormValues {
  return { ...userToFormValues(user), username: '', email: '', suci: '' };
}

/** The contract input of the form values: an empty e-mail defaults to the username, an empty SUCI is none. */
export function toUserInput(values: UserFormValues): UserInput {
  const email = values.email.trim();
  const suci = values.suci.trim();
  return {
    username: values.username,
    firstname: values.firstname,
    lastname: values.lastname,
    email: email === '' ? undefined : email,
    groups: values.groups,
    isprvaccess: values.isprvaccess,
    issiauser: values.issiauser,
    isxdrenabled: values.isxdrenabled,
    suci: suci === '' ? null : suci,
  };
}

/** Props of {@link UserForm}. */
export interface UserFormProps {
  /** Starting values; a new user when absent. */
  initialValues?: UserFormValues;
  /** The tenant's groups offered in the picker. */
  groupOptions: GroupOption[];
  /** True while the group look-up loads. */
  isGroupsLoading?: boolean;
  /** True when the group look-up failed; the picker is then disabled with a hint. */
  isGroupsError?: boolean;
  /** Text of the submit button, e.g. "Add user" or "Save changes". */
  submitLabel: string;
  /** Sends the input; a rejected promise with server `details` puts them on the fields. */
  onSubmit: (input: UserInput) => Promise<unknown>;
  /** Shows a "Cancel" button that calls this. */
  onCancel?: () => void;
}

/**
 * What the form sends as the XDR flag while the working tenant has no XDR, where its switch is not shown and the
 * server refuses turning it on (403 `feature_disabled`): an existing user's own value (an edit changes nothing of
 * it), off for a new user (add, and a copy of a user who has it). Only an existing user has a username to start
 * with.
 */
function withoutXdr(values: UserFormValues, initialValues: UserFormValues): UserFormValues {
  const isExisting = initialValues.username !== '';
  return { ...values, isxdrenabled: isExisting ? initialValues.isxdrenabled : false };
}

/**
 * The user form shared by add, edit and copy. Validates with the contract's `UserInput` schema on submit
 * and shows the server's per-field details when the write is refused. The XDR switch is there only while the
 * working tenant has XDR (contracts `FEATURE_PARTS.xdr`).
 */
export function UserForm({
  initialValues = EMPTY_USER_FORM,
  groupOptions,
  isGroupsLoading = false,
  isGroupsError = false,
  submitLabel,
  onSubmit,
  onCancel,
}: UserFormProps) {
  const { t } = useTranslation();
  const hasXdr = useFeature('xdr');
  const form = useForm<UserFormValues>({
    mode: 'controlled',
    initialValues,
    validate: zodValidator(UserInput, t, toUserInput),
    // The e-mail follows the username until the admin types a different one.
    onValuesChange: (values, previous) => {
      const isEmailFollowing = previous.email === '' || previous.email === previous.username;
      if (values.username !== previous.username && isEmailFollowing && values.email === previous.email) {
        form.setFieldValue('email', values.username);
      }
    },
  });

  // Keyboard and screen-reader users land on the first field that needs attention.
  const focusFirstError = (errors: FormErrors) => {
    const first = FIELDS.find((field) => errors[field] !== undefined);
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      await onSubmit(toUserInput(hasXdr ? values : withoutXdr(values, initialValues)));
    } catch (error) {
      const errors = serverFieldErrors(error, t);
      if (FIELDS.some((field) => errors[field] !== undefined)) {
        form.setErrors(errors);
        focusFirstError(errors);
      }
    }
  }, focusFirstError);

  const groupData = groupOptions.map((group) => ({ value: group.id, label: group.name }));

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="lg" maw={720}>
        <Fieldset legend={t('users.form.account', 'Account')}>
          <Stack gap="sm">
            <TextInput
              label={t('users.form.username', 'Username')}
              description={t('users.form.usernameHint', 'The user’s e-mail address; they sign in with it.')}
              type="email"
              autoComplete="off"
              required
              {...form.getInputProps('username')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label={t('users.form.firstname', 'First name')}
                autoComplete="off"
                required
                {...form.getInputProps('firstname')}
              />
              <TextInput
                label={t('users.form.lastname', 'Last name')}
                autoComplete="off"
                required
                {...form.getInputProps('lastname')}
              />
            </SimpleGrid>
            <TextInput
              label={t('users.form.email', 'E-mail')}
              description={t('users.form.emailHint', 'Where notifications go. Defaults to the username.')}
              type="email"
              autoComplete="off"
              {...form.getInputProps('email')}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend={t('users.form.access', 'Access')}>
          <Stack gap="sm">
            <MultiSelect
              label={t('users.form.groups', 'Groups')}
              placeholder={
                form.values.groups.length === 0
                  ? t('users.form.groupsPlaceholder', 'Choose groups')
                  : undefined
              }
              description={
                isGroupsError ? t('users.form.groupsError', 'The groups could not be loaded.') : undefined
              }
              data={groupData}
              disabled={isGroupsLoading || isGroupsError}
              searchable
              clearable
              nothingFoundMessage={t('users.form.groupsNone', 'No matching group')}
              {...form.getInputProps('groups')}
            />
            <Switch
              label={t('users.form.isprvaccess', 'Private access')}
              description={t('users.form.isprvaccessHint', 'Zero-trust access to private applications.')}
              {...form.getInputProps('isprvaccess', { type: 'checkbox' })}
            />
            <Switch
              label={t('users.form.issiauser', 'Internet access')}
              description={t('users.form.issiauserHint', 'Secure internet access through the cloud gateway.')}
              {...form.getInputProps('issiauser', { type: 'checkbox' })}
            />
            {hasXdr ? (
              <Switch
                label={t('users.form.isxdrenabled', 'XDR')}
                description={t(
                  'users.form.isxdrenabledHint',
                  'Extended detection and response on the user’s devices.',
                )}
                {...form.getInputProps('isxdrenabled', { type: 'checkbox' })}
              />
            ) : null}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('users.form.private5g', 'Private 5G')}>
          <TextInput
            label={t('users.form.suci', 'SUCI (optional)')}
            description={t(
              'users.form.suciHint',
              'Format: suci-0-MCC-MNC-routing indicator-protection scheme-key id-output, e.g. suci-0-001-01-0000-0-0-0123456789.',
            )}
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('suci')}
          />
        </Fieldset>

        <Group gap="sm">
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={form.submitting}>
              {t('users.form.cancel', 'Cancel')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
