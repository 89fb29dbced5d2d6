import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreatedEmbedLink,
  EMBED_KINDS,
  EMBED_LINK_DEFAULT_EXPIRY_DAYS,
  EMBED_LINK_EXPIRY_DAYS,
  type EmbedKind,
  type EmbedLinkInput,
  EmbedLinkInput as EmbedLinkSchema,
  needsReauthentication,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useCreateEmbedLink } from '../../data/embed-links/embed-links';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/auth';
import { type EmbedTarget, useDashboardBase } from '../../lib/embed-links';
import { serverFieldErrors, zodValidator } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format-time';
import { showMutationError } from '../../lib/mutation-toast';
import { LoadingState } from '../ui/query-state';
import { EMPTY_REAUTH, ReauthFields, type ReauthValues, reauthError, reauthInput } from '../ui/reauth-fields';
import { useEmbedKindLabels } from './embed-labels';
import { EmbedLinkField } from './embed-link-field';

/** The dashboards a link of the settings page can open: all but the per-user one (made on a user's page). */
export const TENANT_EMBED_KINDS = EMBED_KINDS.filter((kind) => kind !== 'user-tag');

/** The form's name of a field the server names otherwise. */
const FORM_FIELD: Record<string, string> = { expiresInDays: 'expiry', reauth: 'reauth.password' };
/** The fields the form shows (the dashboards only when they are chosen in it). */
const SHOWN_FIELDS = new Set(['name', 'kinds', 'expiry', 'reauth.password', 'reauth.code']);

interface FormValues {
  name: string;
  kinds: EmbedKind[];
  expiry: string;
  reauth: ReauthValues;
}

/** Props of {@link EmbedLinkForm}. */
export interface EmbedLinkFormProps {
  tenant: string;
  /** The dashboards the link opens, fixed (a dashboard's Embed dialog); else chosen in the form. */
  kinds?: readonly EmbedKind[];
  /** The user of a per-user dashboard's link. */
  userId?: string;
  defaultName: string;
  onCreated: (link: CreatedEmbedLink) => void;
  onCancel?: () => void;
}

/**
 * Makes an embed link: a name, its dashboards, how long it lives and — past 30 days — the password or a TOTP
 * code again. The link is read-only and opens only what it names; the server checks every rule again.
 */
export function EmbedLinkForm({
  tenant,
  kinds,
  userId,
  defaultName,
  onCreated,
  onCancel,
}: EmbedLinkFormProps) {
  const { t } = useTranslation();
  const labels = useEmbedKindLabels();
  const { session } = useSession();
  const toInput = (values: FormValues): EmbedLinkInput => {
    const expiresInDays = Number(values.expiry);
    return {
      name: values.name,
      // In catalogue order, whatever order they were ticked in.
      kinds: kinds ? [...kinds] : EMBED_KINDS.filter((kind) => values.kinds.includes(kind)),
      userId: userId ?? null,
      expiresInDays,
      ...(needsReauthentication(expiresInDays) ? { reauth: reauthInput(values.reauth) } : {}),
    };
  };
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      name: defaultName,
      kinds: [],
      expiry: String(EMBED_LINK_DEFAULT_EXPIRY_DAYS),
      reauth: EMPTY_REAUTH,
    },
    validate: (values) => {
      const errors = zodValidator(EmbedLinkSchema, t, toInput)(values);
      if (needsReauthentication(Number(values.expiry))) {
        const missing = reauthError(values.reauth, t);
        if (missing) errors['reauth.password'] = missing;
      }
      return errors;
    },
  });
  const create = useCreateEmbedLink(tenant, {
    onSuccess: onCreated,
    onError: (error) => {
      // The server's fields as the form names them; one the form does not show (fixed dashboards, the user)
      // is told in the toast instead.
      const shown: Record<string, string> = {};
      let isAllShown = true;
      for (const [field, message] of Object.entries(serverFieldErrors(error, t))) {
        const name = FORM_FIELD[field] ?? field;
        if (name === 'kinds' ? kinds !== undefined : !SHOWN_FIELDS.has(name)) isAllShown = false;
        else shown[name] = message;
      }
      if (Object.keys(shown).length) form.setErrors(shown);
      if (!isAllShown) showMutationError(t, error);
      else if (!Object.keys(shown).length) {
        if (error instanceof ApiError && error.code === 'reauthentication_required') {
          form.setErrors({ 'reauth.password': t('error.28') });
        } else showMutationError(t, error);
      }
    },
  });
  const values = form.getValues();
  const isLongLived = needsReauthentication(Number(values.expiry));

  return (
    <form onSubmit={form.onSubmit((v) => create.mutate(toInput(v)))} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('embed.form.name', 'Name')}
          description={t('embed.form.nameHint', 'Where it is shown, e.g. “NOC wall screen”.')}
          required
          maxLength={100}
          data-autofocus
          {...form.getInputProps('name')}
        />
        {kinds ? (
          <Text size="sm">
            {t('embed.form.opens', 'Opens: {{dashboards}}', {
              dashboards: kinds.map((kind) => labels[kind]).join(', '),
            })}
          </Text>
        ) : (
          <Checkbox.Group
            label={t('embed.form.kinds', 'Dashboards it opens')}
            required
            {...form.getInputProps('kinds')}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
              {TENANT_EMBED_KINDS.map((kind) => (
                <Checkbox key={kind} value={kind} label={labels[kind]} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        )}
        <Select
          label={t('embed.form.expiry', 'Expires')}
          data={EMBED_LINK_EXPIRY_DAYS.map((days) => ({
            value: String(days),
            label: t('embed.form.days', { count: days, defaultValue: 'In {{count}} days' }),
          }))}
          allowDeselect={false}
          {...form.getInputProps('expiry')}
        />
        {isLongLived ? (
          <ReauthFields
            password={form.getInputProps('reauth.password')}
            code={form.getInputProps('reauth.code')}
            hasTotp={session?.totpEnabled ?? false}
          />
        ) : null}
        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={create.isPending}>
              {t('embed.form.cancel', 'Cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={create.isPending}>
            {t('embed.form.submit', 'Create link')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Props of {@link CreatedEmbedLinks}. */
export interface CreatedEmbedLinksProps {
  link: CreatedEmbedLink;
  /** The dashboards to give links of, built with the link's token. */
  targets: EmbedTarget[];
  onDone: () => void;
}

/** The new link's addresses, shown this once (only the token's hash is kept), to copy. */
export function CreatedEmbedLinks({ link, targets, onDone }: CreatedEmbedLinksProps) {
  const { t } = useTranslation();
  const labels = useEmbedKindLabels();
  const base = useDashboardBase();
  return (
    <Stack gap="md">
      <Alert color="orange" title={t('embed.created.title', 'Copy the links now')}>
        {t(
          'embed.created.text',
          'They are shown this once. Whoever has one sees that dashboard of this tenant, read-only, until {{date}} or until the link is revoked in Settings → Embedded dashboards.',
          { date: formatDateTime(link.expiresAt) },
        )}
      </Alert>
      {base === undefined ? (
        <LoadingState label={t('embed.loading', 'Loading the links…')} />
      ) : (
        targets.map((target) => (
          <EmbedLinkField
            key={target.kind}
            label={labels[target.kind]}
            link={target.build(base, link.token)}
          />
        ))
      )}
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('embed.created.done', 'Done')}</Button>
      </Group>
    </Stack>
  );
}
