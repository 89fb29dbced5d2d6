import {
  Anchor,
  Button,
  Card,
  Group,
  Input,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { type Gateway, type Mesh, MeshSettingsInput } from '@palisade/contracts';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useGroupOptions, useHubCandidates, useSiteGateways } from '../api/lookups';
import { useSaveMesh } from '../api/mesh';
import { foldFieldErrors } from '../utils/entry-values';
import { UserMultiSelect } from './user-multi-select';

/** The hub picker's value for "no hub": the devices reach each site directly. */
export const NO_HUB = 'none';

/** What the mesh form edits; `hubId` is {@link NO_HUB} without a hub. */
export interface MeshFormValues {
  enabled: boolean;
  hubId: string;
  siteIds: string[];
  userIds: string[];
  groupIds: string[];
}

const FIELDS: readonly (keyof MeshFormValues)[] = ['enabled', 'hubId', 'siteIds', 'userIds', 'groupIds'];

const ids = (named: { id: string }[]) => named.map((entry) => entry.id);

/** The form values of the saved mesh. */
export function meshToFormValues(mesh: Mesh): MeshFormValues {
  return {
    enabled: mesh.enabled,
    hubId: mesh.hub?.id ?? NO_HUB,
    siteIds: ids(mesh.sites),
    userIds: ids(mesh.users),
    groupIds: ids(mesh.groups),
  };
}

/** The form values as the API takes them. */
export function meshFormToInput(values: MeshFormValues): MeshSettingsInput {
  return {
    enabled: values.enabled,
    hubId: values.hubId === NO_HUB ? null : values.hubId,
    siteIds: values.siteIds,
    userIds: values.userIds,
    groupIds: values.groupIds,
  };
}

/**
 * Options of a gateway picker: the listed gateways that are not retired, and the ones the mesh holds (so a
 * retired or no longer listed one still shows by its name).
 */
function gatewayOptions(listed: Gateway[], held: { id: string; name: string }[]) {
  const data = listed
    .filter((gateway) => gateway.status !== 'retired')
    .map((gateway) => ({ value: gateway.id, label: gateway.name }));
  for (const gateway of held) {
    if (!data.some((option) => option.value === gateway.id))
      data.push({ value: gateway.id, label: gateway.name || gateway.id });
  }
  return data;
}

/** A look-up that failed to load, with a retry. */
function LookupFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="red" role="alert">
      {message}{' '}
      <Anchor component="button" type="button" size="sm" onClick={onRetry}>
        {t('common.retry', 'Try again')}
      </Anchor>
    </Text>
  );
}

/** Props of {@link MeshForm}. */
export interface MeshFormProps {
  mesh: Mesh;
  /** Whether the user may change the mesh (`gateways:update`); without it the fields are read-only. */
  canEdit: boolean;
}

/**
 * The mesh's settings: on or off, the hub, the site gateways and the members (users and groups). Checked with the
 * contract's `MeshSettingsInput`; the server's 400 details show on the same fields, anything else is toasted.
 */
export function MeshForm({ mesh, canEdit }: MeshFormProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const titleId = useId();
  const membersId = useId();
  const enabledHintId = useId();
  // Refusals show on the fields or as a toast, below.
  const save = useSaveMesh(tenant, { onError: () => {} });
  const hubs = useHubCandidates(tenant, canEdit);
  const sites = useSiteGateways(tenant, canEdit);
  const groups = useGroupOptions(tenant, canEdit);

  const form = useForm<MeshFormValues>({
    mode: 'controlled',
    initialValues: meshToFormValues(mesh),
    validate: zodValidator<MeshFormValues, MeshSettingsInput>(MeshSettingsInput, t, meshFormToInput),
  });

  // A save elsewhere (or a refetch) moves the saved state; keep it as the form's reset point.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run only when the saved version changes.
  useEffect(() => {
    if (!form.isDirty()) form.setValues(meshToFormValues(mesh));
    form.resetDirty(meshToFormValues(mesh));
  }, [mesh.updatedAt]);

  const focusFirstError = (errors: FormErrors) => {
    const first = FIELDS.find((field) => errors[field] !== undefined);
    if (first) form.getInputNode(first)?.focus();
  };

  const handleSubmit = form.onSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(meshFormToInput(values));
      form.setValues(meshToFormValues(saved));
      form.resetDirty(meshToFormValues(saved));
      showSuccess(
        saved.enabled
          ? t(
              'privateAccess.mesh.saved',
              'Mesh saved. The gateways get the new tunnels with their next bundle.',
            )
          : t('privateAccess.mesh.savedOff', 'Mesh saved. It is off: no gateway or device gets its tunnels.'),
      );
    } catch (error) {
      const errors = foldFieldErrors(serverFieldErrors(error, t), FIELDS);
      if (Object.keys(errors).length === 0) {
        showMutationError(t, error, { title: t('privateAccess.mesh.saveFailed', 'The mesh was not saved.') });
        return;
      }
      form.setErrors(errors);
      focusFirstError(errors);
    }
  }, focusFirstError);

  // Not locked while saving: a refused save moves the focus to the first field at fault.
  const isLocked = !canEdit;
  const hubData = [
    { value: NO_HUB, label: t('privateAccess.mesh.form.hubNone', 'None — devices reach the sites directly') },
    ...gatewayOptions(hubs.data ?? [], mesh.hub ? [mesh.hub] : []),
  ];
  const siteData = gatewayOptions(sites.data?.items ?? [], mesh.sites);
  const groupData = (groups.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  for (const group of mesh.groups) {
    if (!groupData.some((option) => option.value === group.id))
      groupData.push({ value: group.id, label: group.name });
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-labelledby={titleId}>
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" id={titleId} mb="md">
          {t('privateAccess.mesh.form.title', 'Mesh settings')}
        </Title>
        <Stack gap="md">
          <Stack gap={4}>
            <Switch
              label={t('privateAccess.mesh.form.enabled', 'Mesh on')}
              aria-describedby={enabledHintId}
              disabled={isLocked}
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
            {/* Under the label, past the track (a switch's width and its label offset). */}
            <Input.Description id={enabledHintId} pl="calc(3.125rem * var(--mantine-scale))">
              {t(
                'privateAccess.mesh.form.enabledHint',
                'While the mesh is off, no gateway or device gets its tunnels; what you choose below is kept.',
              )}
            </Input.Description>
          </Stack>
          <Stack gap="xs">
            <Select
              label={t('privateAccess.mesh.form.hub', 'Hub')}
              description={t(
                'privateAccess.mesh.form.hubHint',
                'A cybernode the devices reach the mesh sites through. It also relays between two sites when neither has a public endpoint.',
              )}
              placeholder={
                hubs.isPending && canEdit
                  ? t('privateAccess.mesh.form.hubsLoading', 'Loading cybernodes…')
                  : undefined
              }
              data={hubData}
              allowDeselect={false}
              searchable
              nothingFoundMessage={t('privateAccess.mesh.form.hubNoneFound', 'No cybernode found')}
              disabled={isLocked}
              {...form.getInputProps('hubId')}
            />
            {hubs.isError ? (
              <LookupFailed
                message={t('privateAccess.mesh.form.hubsFailed', 'The cybernodes could not be loaded.')}
                onRetry={() => void hubs.refetch()}
              />
            ) : null}
          </Stack>
          <Stack gap="xs">
            <MultiSelect
              label={t('privateAccess.mesh.form.sites', 'Site gateways')}
              description={t(
                'privateAccess.mesh.form.sitesHint',
                'The sites whose networks the mesh joins: they reach each other, and the members reach them.',
              )}
              placeholder={
                form.values.siteIds.length === 0
                  ? sites.isPending && canEdit
                    ? t('privateAccess.form.gatewaysLoading', 'Loading site gateways…')
                    : t('privateAccess.mesh.form.sitesPlaceholder', 'Choose site gateways')
                  : undefined
              }
              data={siteData}
              searchable
              clearable
              hidePickedOptions
              nothingFoundMessage={t('privateAccess.form.gatewayNone', 'No site gateway found')}
              disabled={isLocked}
              {...form.getInputProps('siteIds')}
            />
            {sites.isError ? (
              <LookupFailed
                message={t('privateAccess.form.gatewaysFailed', 'The site gateways could not be loaded.')}
                onRetry={() => void sites.refetch()}
              />
            ) : null}
          </Stack>
          <Stack gap="sm" role="group" aria-labelledby={membersId}>
            <div>
              <Text size="sm" fw={500} id={membersId}>
                {t('privateAccess.mesh.form.members', 'Members')}
              </Text>
              <Input.Description>
                {t(
                  'privateAccess.mesh.form.membersHint',
                  'The devices of these users, and of the members of these groups, get the mesh sites’ networks. Everybody else keeps only what private services and ZTNA rules grant them.',
                )}
              </Input.Description>
            </div>
            <UserMultiSelect
              label={t('privateAccess.form.users', 'Users')}
              knownLabels={new Map(mesh.users.map((user) => [user.id, user.name]))}
              {...form.getInputProps('userIds')}
              value={form.values.userIds}
              disabled={isLocked}
            />
            <MultiSelect
              label={t('privateAccess.form.groups', 'Groups')}
              placeholder={
                form.values.groupIds.length === 0
                  ? groups.isPending && canEdit
                    ? t('privateAccess.form.groupsLoading', 'Loading groups…')
                    : t('privateAccess.form.groupsPlaceholder', 'Choose groups')
                  : undefined
              }
              data={groupData}
              searchable
              clearable
              hidePickedOptions
              nothingFoundMessage={t('privateAccess.form.groupsNone', 'No groups found')}
              disabled={isLocked}
              {...form.getInputProps('groupIds')}
            />
          </Stack>
          {canEdit ? (
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={() => form.reset()}
                disabled={!form.isDirty() || save.isPending}
              >
                {t('common.reset', 'Reset')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('common.save', 'Save')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Card>
    </form>
  );
}
